"""Spao: three players fill the pyramid; each scores the product of their group sizes.

Groups are counted Omega's way: what matters is the product of the sizes,
so several middling groups beat one big one.  In Spao every contact counts,
seen from above or not.

>>> from shibumi import load
>>> match = load('spao').new_match()
>>> [match.push(m).text() for m in ('a1', 'c1', 'e1', 'a3')]
['Wa1', 'Bc1', 'Re1', 'Wa3']
>>> group_sizes(match.state.position, WHITE), product([2, 2, 5]), product([])
([2], 20, 0)
"""

from __future__ import annotations

import random

from ..game import GameInfo, Outcome, State
from ..geometry import ALL_MASK
from ..position import BLACK, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, PLAYER_COLOURS, PlacementGame, playable_points, uniform_choice


def group_sizes(position: Position, colour: int, visible_only: bool = False,
                ignore: int = 0) -> list[int]:
    """Sizes of the groups of one colour, largest first.

    By default (Spao) every ball and every contact counts, seen or not; with
    ``visible_only`` (Speedo) hidden balls and contacts cut by an overpass do
    not.  Balls in the mask ``ignore`` are left out (Speedo's example leaves
    out a ball about to be buried).
    """
    if ignore:
        keep = position.occupied & ~ignore
        position = Position.from_masks(position.white & keep, position.black & keep,
                                       position.red & keep)
    return sorted((g.bit_count() for g in position.groups(colour, visible_only)),
                  reverse=True)


def product(sizes) -> int:
    """The score of a list of group sizes: their product, or 0 with no ball at all."""
    score = 0
    for n in sizes:
        score = (score or 1) * n
    return score


def formula(sizes) -> str:
    """The product written out, smallest group first: ``'2 x 2 x 5 = 20'``."""
    if not sizes:
        return "no balls, 0"
    if len(sizes) == 1:
        return str(sizes[0])
    return " x ".join(str(n) for n in sorted(sizes)) + f" = {product(sizes)}"


def scores_outcome(game, sizes_by_player) -> Outcome:
    """The outcome of a finished game from each player's group sizes.

    The highest product wins; players tied on it share the win.
    """
    scores = [product(s) for s in sizes_by_player]
    best = max(scores)
    winners = tuple(p for p, s in enumerate(scores) if s == best)
    ranking = tuple(tuple(p for p, s in enumerate(scores) if s == level)
                    for level in sorted(set(scores), reverse=True))
    told = ", ".join(f"{game.player_name(p)} {formula(s)}"
                     for p, s in enumerate(sizes_by_player))
    names = " and ".join(game.player_name(p) for p in winners)
    verdict = f"{names} share the win" if len(winners) > 1 else f"{names} wins"
    return Outcome(winners, f"{told}: {verdict}", tuple(float(s) for s in scores), ranking)


@register
class Spao(PlacementGame):
    info = GameInfo(
        name="Spao", designer="Néstor Romeral Andrés", year="2012",
        family="Counting", source="Shibumi Rule Book (2012)",
        summary="Three players each place their own colour until the pyramid is full; "
                "the product of your group sizes is your score, so several small "
                "groups beat one big one.",
        min_players=3, max_players=3, complexity=2, max_length=30)

    rules = """\
Three players, White, Black and Red, play in that order on an empty board.
On your turn put one ball of your own colour on any playable point: an empty
hole, or the hollow on top of a complete 2x2 platform. Nobody passes and
nothing is ever removed, so the pyramid is full after exactly thirty turns,
ten for each player.

Then everyone scores. Your balls fall into groups: two balls of your colour
that touch are in the same group, and so is everything you can reach from
ball to touching ball. Every contact counts here, including those of balls
buried inside the pyramid and those passing under a crossing pair of balls
on the level above. Your score is the product of the sizes of your groups:
groups of 2, 2 and 5 make 2 x 2 x 5 = 20, while the same nine balls in one
group make only 9.

The highest score wins. Players tied for the highest score share the win.
"""
    notes = """\
* Source: the Shibumi Rule Book v1.1 (2012), game by Néstor Romeral Andrés
  (2012). The scoring is that of his earlier game Omega: multiply the sizes
  of your groups.
* "Including hidden connections": we read this as counting the pyramid as
  it is, not as it looks. A buried ball belongs to its groups, and two balls
  that touch are joined even when the contact lies under a crossing pair on
  the level above (the "overpasses cut underpasses" rule of visible
  connection does not apply). Speedo, the companion game, is the one that
  counts only what is seen. The worked example supports this: it speaks of
  a "buried" group that a new ball extends, and in our rebuilt position
  (below) its three scores 9, 20 and 20 come out only when hidden contacts
  count; counting what is seen from above would give 14, 16 and 24.
* Ties: the rule book only says the highest score wins. With three players
  and ten balls each, equal products do happen (in our random games about
  one game in ten), so we let the players tied on the highest product share
  the win; the outcome lists the scores, so a table may break the tie
  another way.
* Score of a player with no ball: 0 (nothing to multiply). It cannot happen
  at the end of Spao, where everyone has ten balls; it matters only for the
  running score shown before a player's first ball.
* Exactly thirty turns: every turn adds one ball and there is always a
  playable point until all thirty are filled, so White, Black and Red place
  ten balls each, within a set's sixteen of each colour.
* The worked example's figure is lost. The text gives enough to rebuild
  one: White is to play its ninth ball (after twenty-four turns, eight balls
  each), its groups have 2, 2 and 4 balls, the group of four runs under
  another ball (buried), one point touches all three groups (a ball there
  makes one group of 9, score 9), and two points touch only the buried group
  (a ball there makes 2 x 2 x 5 = 20). The tests and the chapter rebuild
  such a position, our own, and check every figure of the text on it.
  "Buried" cannot mean that the group holds a ball hidden under level 2:
  with 24 balls, a ball on level 2 and at least three playable points, the
  pyramid can take only 44 shapes, and the tests go through all of them
  and every way of placing the white groups: none has a point joining all
  three groups and two points extending a group of four that holds a
  hidden ball. So "buried" is read as running under other balls: two of
  its balls touch through a contact that a crossing pair on the level
  above hides, so from above the group looks like two pairs.
* A score mid-game, as in the example, is the same product taken over the
  balls on the pyramid at that moment.
"""

    def colour_of(self, player: int) -> int:
        return PLAYER_COLOURS[player]

    def score(self, position: Position) -> Outcome:
        """Everyone's product of group sizes, and who has the highest."""
        return scores_outcome(self, [group_sizes(position, c) for c in PLAYER_COLOURS])

    def result_after(self, position, point, mover):
        if position.occupied == ALL_MASK:
            return self.score(position)
        return None

    def settle(self, state: State) -> State:
        if state.position.occupied == ALL_MASK:
            return State(state.position, state.to_move, self.score(state.position), state.last)
        return state

    def random_playout(self, state: State, rng: random.Random) -> State:
        """The generic loop's games (same choices from the same generator), on masks."""
        if state.result is not None:
            return state
        choose = uniform_choice(rng)
        masks = [0, state.position.white, state.position.black, state.position.red]
        occ, mover = state.position.occupied, state.to_move
        point = None
        while occ != ALL_MASK:
            pts = playable_points(occ)
            point = choose(pts)
            occ |= 1 << point
            masks[PLAYER_COLOURS[mover]] |= 1 << point
            mover = (mover + 1) % 3
        position = Position.from_masks(masks[WHITE], masks[BLACK], masks[RED])
        last = PLACE_MOVES[PLAYER_COLOURS[(mover - 1) % 3]][point] if point is not None \
            else state.last
        return State(position, mover, self.score(position), last)


__all__ = ["Spao", "formula", "group_sizes", "product", "scores_outcome"]
