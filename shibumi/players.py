"""Players that work for any registered game: uniformly random, and MCTS.

A player is called with a game, the true state and the seat it plays, and
returns a move.  It looks at the state only through ``game.observe(state,
seat)``: what that seat would know at the table.  In games with hidden
information the search runs on states drawn from that observation
(``game.determinise``), never on the true state; at a simultaneous choice it
picks its own choice without seeing the others'.  Both players are
deterministic given their seed.

>>> from shibumi import load
>>> game = load('spline')
>>> MCTSPlayer(iterations=200, seed=1).choose(game, game.initial_state()).kind
'place'
"""

from __future__ import annotations

import math
import random
import time

from .errors import IllegalMoveError, is_number, require_text, shown
from .game import SIMULTANEOUS, Game, State
from .notation import Move


class RandomPlayer:
    """Picks a legal move uniformly at random."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return "RandomPlayer()"

    def choose(self, game: Game, state: State, player: int | None = None) -> Move:
        seat = _seat(game, state, player)
        return self.rng.choice(game.legal_moves(game.observe(state, seat), player))


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


class _InfoNode:
    """A node of the information-set tree: reached by a sequence of actions, whatever
    the hidden parts were.  ``avail`` counts the visits of its parent in which its
    action was legal, so rarely legal actions are not over-explored."""
    __slots__ = ("children", "visits", "avail", "value")

    def __init__(self, num_players: int) -> None:
        self.children: dict[Move, _InfoNode] = {}
        self.visits = 0
        self.avail = 0
        self.value = [0.0] * num_players


#: Bounds on a search's budget: beyond them a move would take hours.
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 600.0
#: Most tree nodes one search keeps (a few hundred MB at most); later
#: iterations still play out, from the leaves the tree has.
MAX_NODES = 300_000


class MCTSPlayer:
    """Monte-Carlo tree search (UCT) with random playouts, for any number of players.

    Each node keeps the total reward of every player; a player at a node
    picks the child that is best for *that* player (max^n style), so the
    same search serves solitaire, two-player and many-player games.  Chance
    nodes are sampled.

    It plays honestly.  With perfect information the observation is the
    state and the search is plain UCT.  With hidden information each
    iteration draws a state consistent with the seat's observation
    (``game.determinise``) and walks one shared tree of actions
    (single-observer information-set MCTS).  At a simultaneous choice each of
    its own options is tried against the others' options drawn at random
    (a UCB1 bandit), so the others' actual choices play no part.

    Give a budget in ``iterations`` or ``seconds`` (the first reached stops).
    """

    def __init__(self, iterations: int = 1000, seconds: float | None = None,
                 exploration: float = 1.4, seed: int | None = None) -> None:
        if type(iterations) is not int or not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError(f"MCTS takes 1 to {MAX_ITERATIONS:,} iterations, not {iterations!r}")
        if seconds is not None and not 0 <= seconds <= MAX_SECONDS:
            raise ValueError(f"MCTS takes 0 to {MAX_SECONDS:g} seconds a move, not {seconds!r}")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"MCTSPlayer(iterations={self.iterations}, seconds={self.seconds})"

    def choose(self, game: Game, state: State, player: int | None = None) -> Move:
        seat = _seat(game, state, player)
        view = game.observe(state, seat)      # the only look at the state
        if game.current_player(view) == SIMULTANEOUS:
            return self._choose_simultaneous(game, view, seat)
        if game.info.hidden_information:
            return self._choose_hidden(game, view, seat)
        root = _Node(game, view)
        if len(root.moves) == 1:
            return root.moves[0]
        for _ in self._budget():
            self._iterate(game, root)
        best = max(root.children.items(), key=lambda kv: kv[1].visits)
        return best[0]

    def _room(self) -> bool:
        """Whether the tree may grow by one more node (at most MAX_NODES a search)."""
        self._nodes += 1
        return self._nodes <= MAX_NODES

    def _budget(self):
        """Iteration numbers until the iterations or the seconds run out."""
        self._nodes = 0
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for i in range(self.iterations):
            if deadline is not None and i and i % 16 == 0 and time.perf_counter() > deadline:
                return
            yield i

    def _iterate(self, game: Game, root: _Node) -> None:
        node, path = root, [root]
        # Selection and expansion (none once the tree is full: memory stays bounded).
        while node.mover >= 0:
            untried = [m for m in node.moves if m not in node.children]
            if untried and self._room():
                move = self.rng.choice(untried)
                child = _Node(game, game.apply(node.state, move))
                node.children[move] = child
                path.append(child)
                node = child
                break
            if untried:                   # the tree is full: play out from here
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

    # -- hidden information ------------------------------------------------------
    def _choose_hidden(self, game: Game, view: State, seat: int) -> Move:
        """Information-set search: one tree of actions over many drawn states."""
        own = game.legal_moves(view)
        if len(own) == 1:
            return own[0]
        root = _InfoNode(game.num_players)
        for _ in self._budget():
            self._iterate_hidden(game, root, game.determinise(view, seat, self.rng))
        tried = [(root.children[m].visits, i, m) for i, m in enumerate(own)
                 if m in root.children]
        return max(tried)[2] if tried else own[0]

    def _iterate_hidden(self, game: Game, root: _InfoNode, state: State) -> None:
        node, path = root, [root]
        while True:
            mover = game.current_player(state)
            if mover < 0:                 # chance, simultaneous or the end: play out
                break
            legal = game.legal_moves(state)
            for move in legal:
                child = node.children.get(move)
                if child is not None:
                    child.avail += 1
            untried = [m for m in legal if m not in node.children]
            if untried and self._room():
                move = self.rng.choice(untried)
                child = node.children[move] = _InfoNode(game.num_players)
                child.avail = 1
                state = game.apply(state, move)
                path.append(child)
                break
            if untried:                   # the tree is full: play out from here
                break
            move, child = self._select_available(node, legal, mover)
            state = game.apply(state, move)
            node = child
            path.append(child)
        rewards = game.outcome(game.random_playout(state, self.rng)).returns(game.num_players)
        for n in path:
            n.visits += 1
            for p, r in enumerate(rewards):
                n.value[p] += r

    def _select_available(self, node: _InfoNode, legal: list[Move], mover: int):
        best, best_score = None, -1.0
        for move in legal:
            child = node.children[move]
            score = child.value[mover] / child.visits \
                + self.exploration * math.sqrt(math.log(child.avail) / child.visits)
            if score > best_score:
                best, best_score = (move, child), score
        return best

    # -- simultaneous choices -------------------------------------------------------
    def _choose_simultaneous(self, game: Game, view: State, seat: int) -> Move:
        """UCB1 over the seat's own options; the others' choices drawn at random."""
        own = game.legal_moves(view, seat)
        if len(own) == 1:
            return own[0]
        visits, totals = [0] * len(own), [0.0] * len(own)
        for i in self._budget():
            if i < len(own):
                k = i
            else:
                log_n = math.log(i)
                k = max(range(len(own)), key=lambda j: totals[j] / visits[j]
                        + self.exploration * math.sqrt(log_n / visits[j]))
            state = game.determinise(view, seat, self.rng)
            joint = tuple(own[k] if p == seat else self.rng.choice(game.legal_moves(state, p))
                          for p in range(game.num_players))
            final = game.random_playout(game.apply_joint(state, joint), self.rng)
            visits[k] += 1
            totals[k] += game.outcome(final).returns(game.num_players)[seat]
        return own[max(range(len(own)), key=lambda j: (visits[j], -j))]


def _seat(game: Game, state: State, player: int | None) -> int:
    """The seat a player chooses for: ``player``, or whoever is to move."""
    mover = game.current_player(state)
    if mover == SIMULTANEOUS:
        if player is None or not 0 <= player < game.num_players:
            raise IllegalMoveError("at a simultaneous choice, say which player chooses")
        return player
    if mover < 0:
        raise IllegalMoveError("there is no move to choose: the game is over "
                               "or it is not a player's turn")
    if player is not None and player != mover:
        raise IllegalMoveError(f"it is {game.player_name(mover)}'s turn, "
                               f"not {game.player_name(player)}'s")
    return mover


PLAYERS = {"random": RandomPlayer, "mcts": MCTSPlayer}
SPECS = "random, mcts, mcts:ITERATIONS (1-1,000,000) or mcts@SECONDS (up to 600)"


def make_player(spec: str, seed: int | None = None):
    """A player from a short spec: ``random``, ``mcts`` (about a second a move),
    ``mcts:2000`` (a fixed number of iterations, reproducible with a seed) or
    ``mcts@2.5`` (seconds a move).

    >>> make_player("mcts:500")
    MCTSPlayer(iterations=500, seconds=None)
    """
    require_text(spec, "a player", "'mcts:1000'", 40, ValueError)
    name, sep, arg = spec.strip().partition(":")
    if not sep:
        name, sep, arg = name.partition("@")
    if name == "random" and not sep:
        return RandomPlayer(seed)
    if name == "mcts" and not sep:
        return MCTSPlayer(iterations=MAX_ITERATIONS, seconds=1.0, seed=seed)
    if name == "mcts" and sep == ":" and is_number(arg) and 1 <= int(arg) <= MAX_ITERATIONS:
        return MCTSPlayer(iterations=int(arg), seed=seed)
    if name == "mcts" and sep == "@":
        try:
            seconds = float(arg)
        except ValueError:
            seconds = math.nan
        if 0 < seconds <= MAX_SECONDS:
            return MCTSPlayer(iterations=MAX_ITERATIONS, seconds=seconds, seed=seed)
    raise ValueError(f"bad player {shown(spec)}; players: {SPECS}")


__all__ = ["MCTSPlayer", "RandomPlayer", "make_player"]
