"""Spawn: three colours in, one ball out, and never three of a colour in contact.

Both players share every ball. A turn places one ball of each colour (each
placement its own action), the three close together, then takes one ball
away. No ball may ever touch two balls of its own colour. Whoever completes
the pyramid wins; whoever cannot play a whole turn loses.

>>> from shibumi import load
>>> m = load("spawn").new_match()
>>> m.push("Wc3"), m.push("Bc1"), m.push("Re3")   # the opening turn: no removal
(Move('Wc3.0'), Move('Bc1'), Move('Re3.0'))
>>> m.game.status_lines(m.state)[-1]
'Player 2 places a white, a black and a red ball.'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..errors import NotationError, shown
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import ALL_MASK, CONTACTS, POINTS, SUPPORTED_MASK, points_of
from ..position import COLOUR_NAMES, COLOURS, Position, hidden_mask
from ..registry import register
from .placement import PLACE_MOVES, REMOVE_MOVES, playable_bits, sole_winner
from .spaghetti import NEAR

PER_COLOUR = 16
"""Balls of each colour in the set (all of them shared by both players)."""
SLOTS = ("ball1", "ball2", "ball3")
_CACHE_LIMIT = 200_000

_PAIRS: dict[tuple[int, bool], tuple[int, ...]] = {}
_HIDDEN: dict[int, int] = {}
_FINISH: dict[bool, dict] = {}
#: For each point, its contacts as (other point, overpass mask) pairs.
LINKS = tuple(tuple((b if a == p else a, over) for a, b, over in CONTACTS if p in (a, b))
              for p in POINTS)


def _hidden(occupied: int) -> int:
    mask = _HIDDEN.get(occupied)
    if mask is None:
        if len(_HIDDEN) > _CACHE_LIMIT:
            _HIDDEN.clear()
        mask = _HIDDEN[occupied] = hidden_mask(occupied)
    return mask


def kin(p: int, mine: int, occupied: int, visible: bool = True) -> int:
    """Balls of the mask ``mine`` in contact with the ball at p (seen from above
    when ``visible``)."""
    hidden = _hidden(occupied) if visible else 0
    if hidden >> p & 1:
        return 0
    found = 0
    for q, over in LINKS[p]:
        if mine >> q & 1 and not hidden >> q & 1 \
                and not (visible and over and occupied & over == over):
            found |= 1 << q
    return found


def fits(p: int, mine: int, occupied: int, visible: bool = True) -> bool:
    """Whether a ball just placed at p (in ``mine``, its colour's mask) keeps the
    triplet rule. Only its own contacts can break it: a new ball covers balls
    and cuts contacts, so it never links two other balls."""
    near = kin(p, mine, occupied, visible)
    if not near:
        return True
    if near & (near - 1):
        return False
    second = kin(near.bit_length() - 1, mine, occupied, visible)
    return not second & (second - 1)


def contact_pairs(occupied: int, visible: bool = True) -> tuple[int, ...]:
    """The contacts between balls of an occupancy, each as a two-point mask.

    With ``visible`` only the contacts seen from above count: none with a
    hidden ball, none cut by an overpass (the book's usual connection).
    Memoised: few occupancies are stable.
    """
    key = (occupied, visible)
    pairs = _PAIRS.get(key)
    if pairs is None:
        hidden = hidden_mask(occupied) if visible else 0
        found = []
        for a, b, over in CONTACTS:
            pair = 1 << a | 1 << b
            if occupied & pair != pair or hidden & pair:
                continue
            if visible and over and occupied & over == over:
                continue
            found.append(pair)
        if len(_PAIRS) > _CACHE_LIMIT:
            _PAIRS.clear()
        pairs = _PAIRS[key] = tuple(found)
    return pairs


def no_triplets(position: Position, visible: bool = True) -> bool:
    """True when no ball is in contact with two or more balls of its colour.

    Equivalently, every connected group of one colour has at most two balls.
    """
    return masks_fit((position.white, position.black, position.red), visible)


def masks_fit(masks: tuple[int, int, int], visible: bool = True) -> bool:
    """:func:`no_triplets` on (white, black, red) masks."""
    pairs = contact_pairs(masks[0] | masks[1] | masks[2], visible)
    for mask in masks:
        seen = 0
        for pair in pairs:
            if mask & pair == pair:
                if seen & pair:        # a ball already linked to its colour once
                    return False
                seen |= pair
    return True


def clustered(points: tuple[int, ...]) -> bool:
    """One of the balls is next to all the others (touching or diagonal on its level)."""
    if len(points) < 2:
        return True
    return any(all(NEAR[p] >> q & 1 for q in points if q != p) for p in points)


def third_spots(a: int, b: int) -> int:
    """Points where a third ball makes a cluster with balls at a and b: next to
    either when a and b are neighbours, else next to both."""
    return NEAR[a] | NEAR[b] if NEAR[a] >> b & 1 else NEAR[a] & NEAR[b]


@dataclass(frozen=True)
class SpawnState(State):
    ply: int = 0
    """Actions played so far."""
    placed: tuple[int, ...] = ()
    """Points of the balls placed in the turn under way, in order."""


@register
class Spawn(Game):
    info = GameInfo(
        name="Spawn", designer="Lloyd Krassner", year="2012",
        family="Completion", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Each turn place a white, a black and a red ball close together and "
                "take one ball away, never letting three of a colour touch; complete "
                "the pyramid or leave your opponent stuck.",
        complexity=3, max_length=84)
    parameters = {"visible": True}
    player_names = ("Player 1", "Player 2")

    rules = """\
The board starts empty and every ball of the set (sixteen of each colour) is
shared by both players. Player 1 moves first.

The triplet rule: no ball may ever touch two or more balls of its own colour.
So two balls of a colour may touch, but never three in a chain. Touching
means a contact seen from above: a hidden ball touches nothing, and two
touching balls on the level above cut the contact they pass over. Balls that
are diagonal neighbours on one level do not touch.

A turn has two steps.

1. Place three balls, one white, one black and one red, in any order, on
   playable points (a ball may rest on a platform completed by a ball of the
   same turn). One of the three must be next to the other two: touching it,
   or its diagonal neighbour on the same level. If all sixteen balls of a
   colour are on the pyramid, you place only the other two colours (and one
   of those two must be next to the other).
2. Take away one ball that is not pinned (a ball under two or more balls is
   pinned), any colour, but not one you have just placed. A ball resting on
   it drops into its place, with any ball above. The position after the drop
   must still obey the triplet rule. Player 1 skips this step on the very
   first turn of the game.

Every ball must obey the triplet rule as it is placed. A ball may only be
placed if the turn can still be finished.

You win by completing the pyramid: when the thirtieth ball goes in, the game
ends at once (even in the middle of a turn). If you cannot play a whole turn
when it is your turn, you lose.

Variant `spawn(visible=False)`: every physical contact counts for the triplet
rule, hidden or cut ones too.
"""
    notes = """\
* Goal (the text's end is terse): completing the pyramid wins, and a player
  who cannot place their balls loses. The translator's summary of the game
  says the same: place the last ball, or leave the opponent without a move.
  The pyramid is complete the moment the thirtieth ball is in, so the last
  turn may place fewer than three balls; the balls placed must still be
  next to one another (one next to all the others).
* Breaking the triplet rule loses, says the text. We simply never offer such
  a placement or removal, which comes to the same thing: a player whose
  every option breaks the rule cannot play a turn and loses.
* "Connected" is the book's word for the visible contact (hidden balls and
  contacts under an overpass do not count), and the text itself suggests it:
  it warns that the removal, not only the drop, could break the rule, which
  can happen only if uncovering a ball or a contact counts. A variant counts
  every physical contact.
* The triplet rule holds for every ball at all times ("a ball, once placed"):
  a new ball may touch one ball of its colour only if that ball touches no
  other of its colour. In other words, no group of one colour ever has three
  balls. This is also what the name says.
* "Next to" for the three balls: the text says touching or diagonal on the
  same level. Touching here is the physical contact of balls being placed
  together, before anything covers them.
* Removal: the text says a *free* ball and then that the removal may cause a
  drop, which a free ball (one with nothing on it) never does. We read it as
  a movable ball (not pinned), as the English original of another annex game,
  Spoff, does for the same French word.
* A whole turn or nothing: each ball is one action, and an action is offered
  only if the rest of the turn (the other balls and, except on the first turn,
  a removal) can still follow, so a turn never gets stuck half way. A player
  with no whole turn loses at once.
* Material: the set's sixteen balls of each colour; a removed ball goes back
  to the pile. Running out of a colour is possible in principle (a full
  pyramid can hold sixteen balls of one colour with no triplet, most of them
  hidden or cut off) but is very rare; the text's rule for it is followed.
* Length: every turn after the first adds at least one ball (two of three
  colours can never be exhausted at once: that would take 32 balls), and the
  game stops at 30, so it always ends: at most 3 + 3 x 27 = 84 actions.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.visible = self.params["visible"]
        # Shared by every game with the same reading of "touching".
        self._finish = _FINISH.setdefault(self.visible, {})

    def initial_state(self, rng=None) -> SpawnState:
        return self.settle(SpawnState())

    def length(self, state) -> int:
        return state.ply

    # -- the turn ---------------------------------------------------------------
    # The search works on (white, black, red) masks: it visits many positions.
    @staticmethod
    def due(masks: tuple[int, int, int], placed: tuple[int, ...]) -> list[int]:
        """Colours still to place this turn (one of each colour left in the pile)."""
        done = 0
        for p in placed:
            done |= 1 << p
        return [c for c, mask in zip(COLOURS, masks)
                if not mask & done and mask.bit_count() < PER_COLOUR]

    @staticmethod
    def opening(masks: tuple[int, int, int], placed: tuple[int, ...]) -> bool:
        """The very first turn of the game (no removal): the board was empty."""
        return (masks[0] | masks[1] | masks[2]).bit_count() == len(placed)

    def removals(self, masks: tuple[int, int, int], placed: tuple[int, ...],
                 first_only: bool = False) -> list[int]:
        """Balls that may be taken away: movable, not placed this turn, no triplet
        after the drop (only the first one found with ``first_only``)."""
        occ = masks[0] | masks[1] | masks[2]
        position = Position.from_masks(*masks)
        found = []
        for p in points_of(occ):
            above = occ & SUPPORTED_MASK[p]
            if above & (above - 1) or p in placed:      # pinned, or just placed
                continue
            after = position.remove(p)[0]
            if masks_fit((after.white, after.black, after.red), self.visible):
                found.append(p)
                if first_only:
                    break
        return found

    def _placements(self, masks: tuple[int, int, int], placed: tuple[int, ...]):
        """Each (colour, point, masks after) that obeys the rules for this ball."""
        occ = masks[0] | masks[1] | masks[2]
        spots = playable_bits(occ)
        if len(placed) == 2:       # the third ball completes the cluster of three
            spots &= third_spots(*placed)
        spots = points_of(spots)
        for colour in self.due(masks, placed):
            i = colour - 1
            for p in spots:
                mine = masks[i] | 1 << p
                if fits(p, mine, occ | 1 << p, self.visible):
                    yield colour, p, masks[:i] + (mine,) + masks[i + 1:]

    def can_finish(self, masks: tuple[int, int, int], placed: tuple[int, ...]) -> bool:
        """Whether the turn under way (balls ``placed`` already in) can be completed."""
        key = masks + placed
        known = self._finish.get(key)
        if known is not None:
            return known
        if masks[0] | masks[1] | masks[2] == ALL_MASK:
            result = clustered(placed)
        elif not self.due(masks, placed):
            result = clustered(placed) and (self.opening(masks, placed)
                                            or bool(self.removals(masks, placed, True)))
        else:
            result = any(self.can_finish(after, placed + (p,))
                         for _, p, after in self._placements(masks, placed))
        if len(self._finish) > _CACHE_LIMIT:
            self._finish.clear()
        self._finish[key] = result
        return result

    @staticmethod
    def masks(state) -> tuple[int, int, int]:
        pos = state.position
        return pos.white, pos.black, pos.red

    def removing(self, state) -> bool:
        """The turn's balls are all in and a ball must now be taken away."""
        return bool(state.placed) and not self.due(self.masks(state), state.placed)

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        masks = self.masks(state)
        if self.removing(state):
            return [REMOVE_MOVES[p] for p in self.removals(masks, state.placed)]
        return [PLACE_MOVES[c][p] for c, p, after in self._placements(masks, state.placed)
                if self.can_finish(after, state.placed + (p,))]

    def apply(self, state, move):
        mover, ply = state.to_move, state.ply + 1
        if move.kind == "remove":
            position, _ = state.position.remove(move.point)
            return self.settle(SpawnState(position, 1 - mover, None, move, ply))
        position = state.position.place(move.point, move.colour)
        placed = state.placed + (move.point,)
        if position.occupied == ALL_MASK:
            return SpawnState(position, mover, self._completed(mover), move, ply, placed)
        masks = position.white, position.black, position.red
        if not self.due(masks, placed) and self.opening(masks, placed):
            return self.settle(SpawnState(position, 1 - mover, None, move, ply))
        return SpawnState(position, mover, None, move, ply, placed)

    def _completed(self, player: int) -> Outcome:
        return Outcome((player,), f"{self.player_name(player)} completed the pyramid")

    def settle(self, state):
        """A complete pyramid has been won; a mover with no whole turn loses."""
        if state.position.occupied == ALL_MASK:
            return dataclasses.replace(state, result=self._completed(state.to_move))
        if not state.placed and not self.can_finish(self.masks(state), ()):
            loser = state.to_move
            return dataclasses.replace(state, result=Outcome(
                (1 - loser,), f"{self.player_name(loser)} cannot play a whole turn"))
        return state

    def winning_points(self, state) -> int:
        """The balls of the turn that completed the pyramid."""
        if sole_winner(state) is None or state.position.occupied != ALL_MASK:
            return 0
        return sum(1 << p for p in state.placed)

    # -- text -------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The pile of each colour and what the mover still has to do."""
        pile = [f"{PER_COLOUR - state.position.count(c)} {COLOUR_NAMES[c]}" for c in COLOURS]
        lines = [f"Balls not on the pyramid: {', '.join(pile)}."]
        if state.result is not None:
            return lines
        me = self.player_name(state.to_move)
        if self.removing(state):
            lines.append(f"{me} takes away a ball that is not pinned and was not "
                         "placed this turn.")
        else:
            due = [f"a {COLOUR_NAMES[c]}" for c in self.due(self.masks(state), state.placed)]
            balls = " and ".join([", ".join(due[:-1]), due[-1]] if len(due) > 1 else due)
            lines.append(f"{me} places {balls} ball.")
        return lines

    def transform_state(self, state, perm):
        image = super().transform_state(state, perm)
        return dataclasses.replace(image, placed=tuple(perm[p] for p in state.placed))

    def extra_text(self, state) -> str:
        balls = {slot: ("point", p) for slot, p in zip(SLOTS, state.placed)}
        return write_fields(ply=state.ply, **balls)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, numbers=("ply",), points=SLOTS)
        slots = [fields[s] for s in SLOTS]
        placed = tuple(p for p in slots if p is not None)
        if slots[:len(placed)] != list(placed) or len(set(placed)) != len(placed) \
                or len({position.colour_at(p) for p in placed}) != len(placed) \
                or any(not position.occupied >> p & 1 for p in placed):
            raise NotationError(f"Spawn state {shown(extras)}: ball1, ball2, ball3 name the "
                                "balls placed this turn, in order, of different colours")
        if any(position.count(c) > PER_COLOUR for c in COLOURS) \
                or not no_triplets(position, self.visible):
            raise NotationError(f"Spawn state {shown(position.text())}: at most "
                                f"{PER_COLOUR} balls of a colour, and no ball touching two "
                                "of its own colour")
        state = SpawnState(position, to_move, None, None, fields["ply"], placed)
        if placed and position.occupied != ALL_MASK \
                and not self.can_finish(self.masks(state), placed):
            raise NotationError(f"Spawn state {shown(extras)}: this turn cannot be finished")
        return self.settle(state)
