"""Spout: a race to place all your balls, sped up by free balls on your own platforms.

Completing a platform that holds enough balls of your colour earns a bonus
ball on top of it, placed at once; a bonus can complete another platform in
turn. Each ball, bonus or not, is its own action of the mover:

>>> from shibumi import load
>>> m = load("spout").new_match(record="Wa1 Bg7 Wc1 Be7 Wa3 Bg5")
>>> m.push("c3")                 # a1 c1 a3 c3: four white balls close a platform
Move('Wc3.0')
>>> m.legal_moves()              # the bonus ball goes on it, by White again
[Move('Wb2')]
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..bits import nth_point, points_in, position_of, raised
from ..errors import NotationError, UnknownGameError, shown
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import (BOARD_MASK, NUM_POINTS, SUPPORT_MASK, SUPPORTED_MASK, points_of,
                        transform_mask)
from ..notation import parse_point, point_name
from ..position import COLOUR_NAMES, Position
from ..registry import register
from .placement import PLACE_MOVES, PLAYER_COLOURS, playable_bits

#: Balls in each player's supply, and balls of one's colour that make a
#: completed platform one's own, by number of players.
SUPPLY = {2: 15, 3: 10}
FRIENDLY = {2: 3, 3: 2}


def bonus_points(position: Position, point: int, colour: int, friendly: int) -> int:
    """The platforms that the ball on ``point`` has just completed with at least
    ``friendly`` balls of ``colour`` among their four, as a mask of their tops.

    Only platforms resting on ``point`` can have been completed by it.
    """
    occ, mine, out = position.occupied, position.mask(colour), 0
    for q in points_of(SUPPORTED_MASK[point] & ~occ):
        sup = SUPPORT_MASK[q]
        if occ & sup == sup and (sup & mine).bit_count() >= friendly:
            out |= 1 << q
    return out


def earned(raised_tops: int, mine: int, friendly: int) -> int:
    """The tops among ``raised_tops`` (platforms a ball of ``mine`` has just
    completed, as :func:`shibumi.bits.raised` gives them) whose four balls hold
    at least ``friendly`` of ``mine``: :func:`bonus_points` on raw masks."""
    out = 0
    while raised_tops:
        low = raised_tops & -raised_tops
        raised_tops ^= low
        if (SUPPORT_MASK[low.bit_length() - 1] & mine).bit_count() >= friendly:
            out |= low
    return out


@dataclass(frozen=True)
class SpoutState(State):
    supply: tuple[int, ...] = (15, 15)
    """Balls each player still has to place."""
    owed: int = 0
    """Tops of the mover's friendly platforms still waiting for their bonus ball."""


@register
class Spout(Game):
    info = GameInfo(
        name="Spout", designer="Cameron Browne", year="2013",
        family="Counting", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Be the first to place all your balls: completing a platform that is "
                "mostly yours earns a free extra ball on top of it.",
        min_players=2, max_players=3, complexity=2, max_length=29)
    parameters = {"players": 2}

    rules = """\
Two or three players (White, Black, then Red), an empty board. With two
players each has 15 balls of their colour; with three, 10 each.

On your turn put one ball of your colour on any playable point (an empty
hole or a complete 2x2 platform).

Bonus balls. A platform is *friendly* to you when at least 3 of its four
balls are yours (2 of the four in the three-player game). Whenever a ball of
yours completes a friendly platform, you must at once put another ball of
your colour on top of it. That bonus ball may itself complete friendly
platforms, each earning another bonus, and one ball can complete several
platforms at once: then you place one bonus on each, in the order you
choose. Your turn ends when no bonus is owed.

The first player to place their last ball wins, at once, even in the middle
of a turn with bonuses still owed.
"""
    notes = """\
* The goal. The French text says the game ends when a player has no ball
  left and never names the winner outright, but both its captions do: the
  winner of the three-player example "has indeed placed his 10 balls", and
  in the two-player example Black is praised for filling a platform himself
  so that White could not earn a free ball. We read it as a race: the first
  to empty their supply wins. The annex calls it a scoring game; the score
  is the number of balls still in hand, and the state shows each player's.
* "During his turn or when he must play again": we read both as the moment
  the last ball goes in, whether the turn's own ball or a bonus ball (the
  player "plays again"). Bonuses still owed then are void.
* Friendly platform: counted among the four balls that make the platform,
  when it is completed. Only the player who completes a platform can get
  its bonus, and only with his own colour's count: in the three-player game
  a platform of two white and two black balls completed by Black is
  Black's, not White's.
* The bonus is compulsory ("he places immediately") and goes on the very
  platform that earned it ("on this platform"). Several bonuses owed at once
  are placed in the order the player likes; bonuses earned by a bonus ball
  join the list ("in reaction").
* A completed platform that is not friendly to its completer is an ordinary
  playable point for everyone.
* Length: the 30 balls of the supplies fit the 30 points exactly, so the
  board never fills before a supply is empty, and someone always has a
  point to play. The game is over by the 29th ball with two players (15 +
  14) and the 28th with three (10 + 9 + 9).
* Two figures are lost (a won game for each number of players). The chapter
  plays two games of our own that show the same things: blocking a friendly
  platform, and a winner who placed all 10 balls.
* The source game, Au sommet de la pyramide (Margalith Akavya, 1992), is
  played on a larger pyramid; nothing of it is needed here.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.num_players not in SUPPLY:
            raise UnknownGameError(f"spout is for 2 or 3 players, not {self.num_players}")
        self.friendly = FRIENDLY[self.num_players]

    def initial_state(self, rng=None) -> SpoutState:
        return SpoutState(supply=(SUPPLY[self.num_players],) * self.num_players)

    # -- rules ------------------------------------------------------------------
    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
        where = state.owed or playable_bits(state.position.occupied)
        return [row[p] for p in points_in(where)]

    def apply(self, state, move):
        mover, point = state.to_move, move.point
        colour = PLAYER_COLOURS[mover]
        position = state.position
        occupied = position.occupied
        # The point is playable (a legal move): the platforms it completes are
        # those it raises, and only they can earn a bonus.
        masks = [0, position.white, position.black, position.red]
        masks[colour] |= 1 << point
        supply = list(state.supply)
        supply[mover] -= 1
        owed = (state.owed & ~(1 << point)) \
            | earned(raised(occupied, point), masks[colour], self.friendly)
        position = position_of(masks[1], masks[2], masks[3])
        if not supply[mover]:
            return SpoutState(position, mover, self._won(mover, supply), move,
                              tuple(supply), owed)
        return SpoutState(position, mover if owed else (mover + 1) % self.num_players,
                          None, move, tuple(supply), owed)

    def random_playout(self, state, rng):
        """The generic loop's games on raw masks: one draw a ball among the owed
        tops, else among the playable points, in increasing order as
        ``legal_moves`` lists them; the last ball is placed again by
        :meth:`apply`, which words the outcome."""
        if state.result is not None:
            return state
        rnd = rng.random
        position, mover, owed = state.position, state.to_move, state.owed
        masks = [0, position.white, position.black, position.red]
        occupied = position.occupied
        playable = playable_bits(occupied)
        supply = list(state.supply)
        friendly, players = self.friendly, self.num_players
        while True:
            where = owed or playable
            p = nth_point(where, int(rnd() * where.bit_count()))
            bit = 1 << p
            colour = PLAYER_COLOURS[mover]
            if supply[mover] == 1:
                break
            up = raised(occupied, p)
            occupied |= bit
            playable = playable & ~bit | up
            masks[colour] |= bit
            supply[mover] -= 1
            owed &= ~bit
            if up:
                owed |= earned(up, masks[colour], friendly)
            if not owed:
                mover = (mover + 1) % players
        before = SpoutState(position_of(masks[1], masks[2], masks[3]), mover, None, None,
                            tuple(supply), owed)
        return self.apply(before, PLACE_MOVES[colour][p])

    def _won(self, winner: int, supply) -> Outcome:
        others = sorted({supply[p] for p in range(self.num_players) if p != winner})
        ranking = ((winner,),) + tuple(
            tuple(p for p in range(self.num_players) if p != winner and supply[p] == n)
            for n in others)
        return Outcome((winner,), f"{self.player_name(winner)} has placed every ball",
                       tuple(float(n) for n in supply), ranking)

    def transform_state(self, state, perm):
        """The owed bonus points turn with the board."""
        turned = super().transform_state(state, perm)
        return dataclasses.replace(turned, owed=transform_mask(state.owed, perm))

    # -- text -------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Balls in hand, and bonus balls owed."""
        hands = ", ".join(f"{self.player_name(p)} {n}" for p, n in enumerate(state.supply))
        lines = [f"Balls still to place: {hands}."]
        if state.owed and state.result is None:
            tops = " ".join(point_name(p) for p in points_of(state.owed))
            n = state.owed.bit_count()
            lines.append(f"{self.player_name(state.to_move)} owes {n} bonus "
                         f"ball{'s' * (n != 1)} on {tops}.")
        return lines

    def extra_text(self, state) -> str:
        fields = {f"p{p + 1}": n for p, n in enumerate(state.supply)}
        owed = ",".join(point_name(p) for p in points_of(state.owed))
        return write_fields(**fields) + (f" owed={owed}" if owed else "")

    def state_from(self, position, to_move, extras):
        names = tuple(f"p{p + 1}" for p in range(self.num_players))
        owed_text = None
        kept = []
        for token in extras.split():
            if token.startswith("owed="):
                owed_text = token[5:]
            else:
                kept.append(token)
        fields = read_fields(self, " ".join(kept), numbers=names)
        supply = tuple(fields[k] for k in names)
        start = SUPPLY[self.num_players]
        for p, n in enumerate(supply):
            colour = PLAYER_COLOURS[p]
            if position.count(colour) + n != start:
                raise NotationError(
                    f"Spout: {COLOUR_NAMES[colour]} balls in the pyramid "
                    f"({position.count(colour)}) and in hand ({n}) must add up to {start}")
        for colour in PLAYER_COLOURS[self.num_players:]:
            if position.count(colour):
                raise NotationError(f"Spout with {self.num_players} players has no "
                                    f"{COLOUR_NAMES[colour]} balls")
        owed = 0
        if owed_text is not None:
            for name in owed_text.split(",")[:NUM_POINTS + 1]:
                owed |= 1 << parse_point(name)
        if owed & ~(playable_bits(position.occupied) & ~BOARD_MASK):
            raise NotationError("Spout: bonus balls are owed only on open platforms, "
                                f"written like owed=b2,d4.1; got {shown(owed_text)}")
        state = SpoutState(position, to_move, None, None, supply, owed)
        done = [p for p, n in enumerate(supply) if n == 0]
        if len(done) > 1:
            raise NotationError("Spout: only one player can have placed every ball")
        if done:
            state = dataclasses.replace(state, result=self._won(done[0], supply))
        return state
