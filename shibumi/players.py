"""Players that work for any registered game: uniformly random, and MCTS.

A player is called with a game and a state where it is to move and returns
a move.  Both are deterministic given their seed.

>>> from shibumi import load
>>> game = load('spline')
>>> MCTSPlayer(iterations=200, seed=1).choose(game, game.initial_state()).kind
'place'
"""

from __future__ import annotations

import math
import random
import time

from .errors import IllegalMoveError
from .game import SIMULTANEOUS, Game, State
from .notation import Move


class RandomPlayer:
    """Picks a legal move uniformly at random."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return "RandomPlayer()"

    def choose(self, game: Game, state: State, player: int | None = None) -> Move:
        return self.rng.choice(game.legal_moves(state, player))


class _Node:
    __slots__ = ("state", "mover", "moves", "children", "visits", "value")

    def __init__(self, game: Game, state: State) -> None:
        self.state = state
        self.mover = game.current_player(state)
        self.moves = game.legal_moves(state) if self.mover >= 0 else []
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        # Total reward for the player who moved *into* this node, per player.
        self.value = [0.0] * game.num_players


class MCTSPlayer:
    """Monte-Carlo tree search (UCT) with random playouts, for any number of players.

    Each node keeps the total reward of every player; a player at a node
    picks the child that is best for *that* player (max^n style), so the
    same search serves solitaire, two-player and many-player games.  Chance
    nodes are sampled.  Simultaneous and hidden-information nodes are played
    as if the state were known (the searcher sees its own observation and
    samples the others' choices at random).

    Give a budget in ``iterations`` or ``seconds`` (the first reached stops).
    """

    def __init__(self, iterations: int = 1000, seconds: float | None = None,
                 exploration: float = 1.4, seed: int | None = None) -> None:
        if iterations < 1:
            raise ValueError("MCTS needs at least 1 iteration")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"MCTSPlayer(iterations={self.iterations}, seconds={self.seconds})"

    def choose(self, game: Game, state: State, player: int | None = None) -> Move:
        if game.current_player(state) == SIMULTANEOUS:
            return self.rng.choice(game.legal_moves(state, player))
        root = _Node(game, state)
        if not root.moves:
            raise IllegalMoveError("there is no move to choose: the game is over "
                                   "or it is not a player's turn")
        if len(root.moves) == 1:
            return root.moves[0]
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for i in range(self.iterations):
            if deadline is not None and i and i % 16 == 0 and time.perf_counter() > deadline:
                break
            self._iterate(game, root)
        best = max(root.children.items(), key=lambda kv: kv[1].visits)
        return best[0]

    def _iterate(self, game: Game, root: _Node) -> None:
        node, path = root, [root]
        # Selection and expansion.
        while node.mover >= 0:
            untried = [m for m in node.moves if m not in node.children]
            if untried:
                move = self.rng.choice(untried)
                child = _Node(game, game.apply(node.state, move))
                node.children[move] = child
                path.append(child)
                node = child
                break
            node = self._select(node)
            path.append(node)
        # Chance and simultaneous nodes are not expanded: the playout samples them.
        final = game.random_playout(node.state, self.rng)
        rewards = game.outcome(final).returns(game.num_players)
        for n in path:
            n.visits += 1
            for p, r in enumerate(rewards):
                n.value[p] += r

    def _select(self, node: _Node) -> _Node:
        log_n = math.log(node.visits)
        player, c = node.mover, self.exploration
        best, best_score = None, -1.0
        for child in node.children.values():
            score = child.value[player] / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best


PLAYERS = {"random": RandomPlayer, "mcts": MCTSPlayer}


def make_player(spec: str, seed: int | None = None):
    """A player from a short spec: ``random``, ``mcts`` (about a second a move),
    ``mcts:2000`` (a fixed number of iterations, reproducible with a seed)."""
    name, _, arg = spec.partition(":")
    if name == "random":
        return RandomPlayer(seed)
    if name == "mcts":
        if not arg:
            return MCTSPlayer(iterations=10 ** 6, seconds=1.0, seed=seed)
        if not arg.isdigit() or int(arg) < 1:
            raise ValueError(f"bad player {spec!r}: write mcts or mcts:ITERATIONS")
        return MCTSPlayer(iterations=int(arg), seed=seed)
    raise ValueError(f"unknown player {spec!r}; players: random, mcts, mcts:N")


__all__ = ["MCTSPlayer", "RandomPlayer", "make_player"]
