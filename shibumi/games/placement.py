"""Shared rules of games where each turn places one ball of the mover's colour.

Spline, Span and many others differ only in what ends the game.  A
subclass supplies :meth:`PlacementGame.result_after`, called after each
placement with the point just played.
"""

from __future__ import annotations

import random

# The playable points of an occupancy, memoised; every placement game asks at
# every step.  One memo for the whole engine lives in shibumi.bits.
from ..bits import playable_cached as playable_bits
from ..bits import playable_points_cached as playable_points
from ..game import Game, Outcome, State
from ..geometry import NUM_POINTS, points_of
from ..notation import Move
from ..errors import NotationError
from ..position import BLACK, COLOUR_NAMES, RED, WHITE

PLAYER_COLOURS = (WHITE, BLACK, RED)
#: PLACE_MOVES[colour][point], interned once.
PLACE_MOVES = ((),) + tuple(tuple(Move.place(p, c) for p in range(NUM_POINTS))
                           for c in (WHITE, BLACK, RED))
#: REMOVE_MOVES[point], interned once (games with removals share them).
REMOVE_MOVES = tuple(Move.remove(p) for p in range(NUM_POINTS))


def sole_winner(state: State) -> int | None:
    """The one winner of a finished game, or None (still playing, a draw, a shared win)."""
    result = state.result
    if result is None or len(result.winners) != 1:
        return None
    return result.winners[0]


class PlacementGame(Game):
    """Players take turns putting a ball of their colour on any playable point."""

    def colour_of(self, player: int) -> int:
        return PLAYER_COLOURS[player]

    def legal_moves(self, state: State, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        row = PLACE_MOVES[self.colour_of(state.to_move)]
        return [row[p] for p in playable_points(state.position.occupied)]

    def apply(self, state: State, move: Move) -> State:
        position = state.position.place(move.point, move.colour)
        result = self.result_after(position, move.point, state.to_move)
        if result is None and position.occupied.bit_count() == NUM_POINTS:
            result = Outcome((), "the pyramid is complete")
        return State(position, (state.to_move + 1) % self.num_players, result, move)

    def result_after(self, position, point: int, mover: int) -> Outcome | None:
        """The outcome once `mover` has played at `point`, or None to go on."""
        raise NotImplementedError

    def state_from(self, position, to_move, extras):
        used = {self.colour_of(p) for p in range(self.num_players)}
        stray = [c for c in (WHITE, BLACK, RED) if c not in used and position.mask(c)]
        if stray:
            raise NotationError(f"{self.info.name} uses only the players' colours; "
                                f"this position has {COLOUR_NAMES[stray[0]]} balls")
        self.check_turn_counts(position, to_move)
        return super().state_from(position, to_move, extras)

    def check_turn_counts(self, position, to_move: int) -> None:
        """Ball counts a game of turns in order can reach, with ``to_move`` to play.

        After m placements player p has placed one ball for each turn i < m
        with i % n == p, so the counts fix both m and whose turn it is.
        """
        n = self.num_players
        counts = [position.count(self.colour_of(p)) for p in range(n)]
        m = sum(counts)
        expected = [(m - p + n - 1) // n for p in range(n)]
        if counts != expected or m % n != to_move:
            names = ", ".join(f"{c} {COLOUR_NAMES[self.colour_of(p)].lower()}"
                              for p, c in enumerate(counts))
            raise NotationError(
                f"{self.info.name}: {names} balls cannot be reached with "
                f"{self.player_name(to_move)} to move; players place in turn, "
                f"{self.player_name(0)} first")

    def settle(self, state: State) -> State:
        """Work out whether a position given as text is already finished.

        Any player's completed goal counts, the last mover's first.
        """
        for back in range(1, self.num_players + 1):
            player = (state.to_move - back) % self.num_players
            for p in points_of(state.position.mask(self.colour_of(player))):
                result = self.result_after(state.position, p, player)
                if result is not None:
                    return State(state.position, state.to_move, result)
        if state.position.occupied.bit_count() == NUM_POINTS:
            return State(state.position, state.to_move, Outcome((), "the pyramid is complete"))
        return state


def uniform_index(rng: random.Random):
    """A fast `n -> random index below n` bound to a generator: the reference
    draw of ``Game.random_step`` (:func:`shibumi.game.random_index`)."""
    rnd = rng.random
    return lambda n: int(rnd() * n)


def uniform_choice(rng: random.Random):
    """A fast `options -> one of them` bound to a generator, by the same draw."""
    rnd = rng.random
    return lambda options: options[int(rnd() * len(options))]
