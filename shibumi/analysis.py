"""Counting and statistics on any registered game: perft and random playouts.

>>> from shibumi import load
>>> [perft(load('spline'), depth) for depth in range(1, 4)]
[16, 240, 3360]
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from .game import CHANCE, SIMULTANEOUS, TERMINAL, Game, State


def children(game: Game, state: State) -> list[State]:
    """Every state one action away (chance outcomes and joint choices included)."""
    player = game.current_player(state)
    if player == TERMINAL:
        return []
    if player == CHANCE:
        return [game.apply(state, move) for move, _ in game.chance_outcomes(state)]
    if player == SIMULTANEOUS:
        joint = [()]
        for p in range(game.num_players):
            joint = [j + (m,) for j in joint for m in game.legal_moves(state, p)]
        return [game.apply_joint(state, j) for j in joint]
    return [game.apply(state, move) for move in game.legal_moves(state)]


def _branching(game: Game, state: State) -> int:
    player = game.current_player(state)
    if player == TERMINAL:
        return 0
    if player == CHANCE:
        return len(game.chance_outcomes(state))
    if player == SIMULTANEOUS:
        total = 1
        for p in range(game.num_players):
            total *= len(game.legal_moves(state, p))
        return total
    return len(game.legal_moves(state))


def perft(game: Game, depth: int, state: State | None = None) -> int:
    """Leaves of the legal-action tree `depth` actions deep (finished games have none).

    Transpositions are counted once per path, as in chess perft, but each
    distinct state is expanded only once per depth (memoised on
    :meth:`Game.state_key`).
    """
    return sum(perft_divide(game, depth, state).values()) if depth else 1


def perft_divide(game: Game, depth: int, state: State | None = None,
                 progress=None) -> dict[str, int]:
    """Perft split by first action: {action text: leaves below it}.

    `progress`, if given, wraps the iteration over first actions (for
    example ``tqdm.tqdm``), so long counts can show a progress bar.
    """
    if depth < 1:
        raise ValueError("perft_divide needs a depth of 1 or more")
    if state is None:
        state = game.initial_state(random.Random(0))
    memo: dict = {}

    def count(node: State, left: int) -> int:
        if left == 0:
            return 1
        if left == 1:
            return _branching(game, node)
        key = (game.state_key(node), left)
        found = memo.get(key)
        if found is None:
            found = sum(count(child, left - 1) for child in children(game, node))
            if len(memo) >= MEMO_LIMIT:   # memory stays bounded; counts stay exact
                memo.clear()
            memo[key] = found
        return found

    firsts = list(zip(_first_actions(game, state), children(game, state)))
    if progress is not None:
        firsts = progress(firsts)
    return {text: count(child, depth - 1) for text, child in firsts}


#: Most states perft remembers at once (a few hundred MB at most).
MEMO_LIMIT = 1_000_000


def estimate_nodes(game: Game, depth: int, state: State | None = None,
                   probes: int = 300, seed: int = 0) -> float:
    """Knuth's estimate of the nodes of the action tree down to ``depth``.

    Each probe walks one random path, multiplying the branching factors it
    meets; the running products, summed over the levels, estimate without
    bias how many nodes a full walk would visit.  It costs ``probes * depth``
    moves whatever the tree's size, so a command can say what a count will
    cost before starting it (perft's memo only makes the real work smaller).

    >>> from shibumi import load
    >>> estimate_nodes(load("spline"), 2)       # 1 + 16 + 16 * 15
    257.0
    """
    if state is None:
        state = game.initial_state(random.Random(0))
    rng = random.Random(seed)
    total = 0.0
    for _ in range(probes):
        node, weight = state, 1.0
        total += 1.0
        for _ in range(depth):
            following = children(game, node) if game.current_player(node) != TERMINAL else []
            if not following:
                break
            weight *= len(following)
            total += weight
            node = rng.choice(following)
    return total / probes


def _first_actions(game: Game, state: State) -> list[str]:
    """Texts of the actions `children` expands, in the same order."""
    player = game.current_player(state)
    if player == TERMINAL:
        return []
    if player == CHANCE:
        return [m.text() for m, _ in game.chance_outcomes(state)]
    if player == SIMULTANEOUS:
        joint = [""]
        for p in range(game.num_players):
            joint = [f"{j} {m.text()}".strip() for j in joint
                     for m in game.legal_moves(state, p)]
        return joint
    return [m.text() for m in game.legal_moves(state)]


@dataclass
class PlayoutStats:
    """What ``playouts`` measured: counts per winner name (or ``draw``)."""
    games: int = 0
    total_length: int = 0
    wins: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def mean_length(self) -> float:
        return self.total_length / self.games if self.games else 0.0

    @property
    def playouts_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    def as_dict(self) -> dict:
        return {"games": self.games, "mean_length": round(self.mean_length, 3),
                "wins": dict(sorted(self.wins.items())),
                "playouts_per_second": round(self.playouts_per_second, 1)}


def playouts(game: Game, seconds: float = 1.0, seed: int = 0,
             max_games: int | None = None, state: State | None = None) -> PlayoutStats:
    """Play uniformly random games for a while and count who wins.

    The length of a game is the number of actions played (for placement games
    that is the number of balls placed).
    """
    rng = random.Random(seed)
    start_state = state if state is not None else game.initial_state(rng)
    stats = PlayoutStats()
    start = time.perf_counter()
    deadline = start + seconds
    while (max_games is None or stats.games < max_games) and (
            max_games is not None or time.perf_counter() < deadline):
        final = game.random_playout(start_state, rng)
        stats.games += 1
        stats.total_length += game.length(final) - game.length(start_state)
        outcome = game.outcome(final)
        if outcome.is_draw:
            stats.wins["draw"] += 1
        else:
            stats.wins[" and ".join(game.player_name(p) for p in outcome.winners)] += 1
    stats.seconds = time.perf_counter() - start
    return stats


@dataclass
class SelfPlayStats:
    """Random self-play, game by game: what the rule book's "by the numbers" shows.

    ``lengths[i]`` is the number of actions of game ``i``; ``winners[i]`` its
    winning players (empty for a draw, or an unsolved solitaire); ``scores[i]``
    its ``outcome.scores`` (None for games that do not score); ``branching[k]``
    the number of choices met at action ``k``, over every game that lasted that
    long.
    """
    game: str
    seed: int
    lengths: list[int] = field(default_factory=list)
    winners: list[tuple[int, ...]] = field(default_factory=list)
    branching: list[list[int]] = field(default_factory=list)
    scores: list[tuple[float, ...] | None] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.lengths)

    @property
    def draws(self) -> int:
        return sum(1 for w in self.winners if not w)

    @property
    def fixed_length(self) -> int | None:
        """The length of every game, when all games had the same; else None."""
        return self.lengths[0] if self.lengths and len(set(self.lengths)) == 1 else None

    def player_scores(self, player: int = 0) -> list[float]:
        """The player's score in each game that has one (a solitaire's score: player 0)."""
        return [s[player] for s in self.scores if s is not None and len(s) > player]

    def win_rate(self, player: int) -> float:
        """Share of games the player won (a shared win counts for each winner)."""
        return sum(1 for w in self.winners if player in w) / self.games if self.games else 0.0

    def mean_branching(self) -> list[float]:
        """Average number of choices at each action number."""
        return [sum(b) / len(b) for b in self.branching]

    def overall_branching(self) -> float:
        """Average number of choices per decision, over every decision met."""
        total = sum(sum(b) for b in self.branching)
        count = sum(len(b) for b in self.branching)
        return total / count if count else 0.0


def self_play(game: Game, games: int = 300, seed: int = 0,
              progress=None) -> SelfPlayStats:
    """Play ``games`` uniformly random games from the start, recording each.

    Deterministic for a given seed.  ``progress``, if given, wraps the range
    of game numbers (``tqdm.tqdm`` for a progress bar).

    >>> from shibumi import load
    >>> stats = self_play(load('spline'), games=20, seed=1)
    >>> stats.games, stats.branching[0][0]
    (20, 16)
    >>> solitaire = self_play(load('spuzzle'), games=5, seed=1)
    >>> solitaire.player_scores(0) == [float(n) for n in solitaire.lengths]
    True
    """
    rng = random.Random(seed)
    stats = SelfPlayStats(game=repr(game), seed=seed)
    numbers = range(games) if progress is None else progress(range(games))
    for _ in numbers:
        state = game.initial_state(rng)
        start = game.length(state)
        while game.current_player(state) != TERMINAL:
            k = game.length(state) - start
            player = game.current_player(state)
            if player == CHANCE:     # a draw is nobody's choice: not a branching
                state = game.random_step(state, rng)
                continue
            if k == len(stats.branching):
                stats.branching.append([])
            if player >= 0:      # one mover: count and pick from the same list
                moves = game.legal_moves(state)
                stats.branching[k].append(len(moves))
                state = game.apply(state, rng.choice(moves))
            else:                # simultaneous: same draws as random_step
                stats.branching[k].append(_branching(game, state))
                state = game.random_step(state, rng)
        stats.lengths.append(game.length(state) - start)
        outcome = game.outcome(state)
        stats.winners.append(tuple(outcome.winners))
        stats.scores.append(tuple(outcome.scores) if outcome.scores is not None else None)
    return stats
