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
from .game import SIMULTANEOUS, TERMINAL, Game, State
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
    """A node of the search tree.  ``proven``, once known, is the exact result
    under perfect play from here: (reward per player, actions to the end)."""
    __slots__ = ("state", "mover", "moves", "children", "visits", "value", "proven", "amaf")

    def __init__(self, game: Game, state: State) -> None:
        self.state = state
        self.mover = game.current_player(state)
        self.moves = game.legal_moves(state) if self.mover >= 0 else []
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        # Total reward for the player who moved *into* this node, per player.
        self.value = [0.0] * game.num_players
        self.proven = None
        # With RAVE: {move: [times the mover played it later, their total reward]}.
        self.amaf = None
        if self.mover == TERMINAL:
            self.proven = (game.outcome(state).returns(game.num_players), 0)
        elif self.mover >= 0:
            win = game.winning_move(state)
            if win is not None:           # a win in one: settled without searching
                child = self.children[win] = _Node(game, game.apply(state, win))
                self.proven = (child.proven[0], 1)


def _preference(proven, mover: int) -> tuple:
    """How much the mover likes a proven result: a better reward first, then a
    faster win or a slower loss (or draw)."""
    reward, length = proven
    return (reward[mover], -length if reward[mover] >= 1.0 else length)


def _prove(node: _Node) -> None:
    """Mark ``node`` proven if its children settle it: the mover has a proven
    win (the best reward there is), or every move is proven."""
    mover, best, complete = node.mover, None, len(node.children) == len(node.moves)
    for child in node.children.values():
        if child.proven is None:
            complete = False
            continue
        if best is None or _preference(child.proven, mover) > _preference(best, mover):
            best = child.proven
    if best is not None and (complete or best[0][mover] >= 1.0):
        node.proven = (best[0], best[1] + 1)


def _learn_amaf(node: _Node, moves, reward: float) -> None:
    """RAVE's statistics: the mover of ``node`` made each of ``moves`` later in an
    iteration that gave them ``reward``."""
    amaf = node.amaf
    if amaf is None:
        amaf = node.amaf = {}
    for move in moves:
        stat = amaf.get(move)
        if stat is None:
            amaf[move] = [1, reward]
        else:
            stat[0] += 1
            stat[1] += reward


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


#: The UCT exploration constant.  0.7 rather than the textbook 1.4: on Spline at
#: 1,000 iterations it kept the exact value in 97.9% of sampled positions against
#: 97.4% (benchmarks/accuracy.py, four samples of 400), and it won 65 of 120
#: games against 1.4 over six placement games.
EXPLORATION = 0.7


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

    A game may opt in to search features through ``search_features`` (a dict;
    with perfect information only): ``rave``, the k of RAVE (all moves as
    first, keyed by the game's ``amaf_moves``: a node's statistics for each
    move its mover made later in an iteration, mixed into the children's
    values with weight beta = sqrt(k / (3n + k)) after n visits), and
    ``exploration``, the constant to use with it.  The constructor's ``rave``
    and ``exploration`` override the game's (``rave=0`` turns RAVE off).
    Games that declare nothing are searched by plain UCT as before.
    """

    def __init__(self, iterations: int = 1000, seconds: float | None = None,
                 exploration: float | None = None, seed: int | None = None,
                 rave: float | None = None) -> None:
        if type(iterations) is not int or not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError(f"MCTS takes 1 to {MAX_ITERATIONS:,} iterations, not {iterations!r}")
        if seconds is not None and not 0 <= seconds <= MAX_SECONDS:
            raise ValueError(f"MCTS takes 0 to {MAX_SECONDS:g} seconds a move, not {seconds!r}")
        self.iterations = iterations
        self.seconds = seconds
        self._exploration = exploration
        self.exploration = EXPLORATION if exploration is None else exploration
        self._rave = rave
        self.rave = 0.0
        self.rng = random.Random(seed)
        self._tree = None                  # (game, node) kept for the next move
        self.root = None                   # the last search's root, for inspection

    def __repr__(self) -> str:
        return f"MCTSPlayer(iterations={self.iterations}, seconds={self.seconds})"

    def choose(self, game: Game, state: State, player: int | None = None) -> Move:
        seat = _seat(game, state, player)
        view = game.observe(state, seat)      # the only look at the state
        if game.current_player(view) == SIMULTANEOUS:
            return self._choose_simultaneous(game, view, seat)
        if game.info.hidden_information:
            return self._choose_hidden(game, view, seat)
        self._configure(game)
        root = self.root = self._reuse(game, view)
        if len(root.moves) == 1:
            return root.moves[0]
        for _ in self._budget(root):
            if root.proven is not None:       # settled: no need to search on
                break
            self._iterate(game, root)
        move = self._best(root)
        self._tree = (game, root.children[move])
        return move

    def _configure(self, game: Game) -> None:
        """The search features for this game: the constructor's choice, else the
        game's (``game.search_features``), else plain UCT."""
        features = getattr(game, "search_features", None) or {}
        rave = self._rave if self._rave is not None else features.get("rave", 0.0)
        self.rave = rave if rave and hasattr(game, "amaf_moves") else 0.0
        self.exploration = self._exploration if self._exploration is not None \
            else features.get("exploration", EXPLORATION) if self.rave else EXPLORATION

    def _reuse(self, game: Game, view: State) -> _Node:
        """The subtree of the last search that this position reached, or a new root.

        The tree is kept between moves: after our move and the replies, the
        node of the position now on the board holds the search done so far."""
        kept, self._tree = self._tree, None
        if kept is not None and kept[0] is game:
            node = kept[1]
            frontier = [node]
            for _ in range(3):                # our move's node, then up to two replies
                for n in frontier:
                    if n.state == view:
                        return n
                frontier = [c for n in frontier for c in n.children.values()]
        return _Node(game, view)

    @staticmethod
    def _best(root: _Node) -> Move:
        """The move to play: a proven best one if the search settled the root,
        else the most visited move not proven lost (the slowest loss if all are)."""
        mover, items = root.mover, list(root.children.items())
        if root.proven is not None:
            target = root.proven
            for move, child in items:
                if child.proven is not None and child.proven[0] == target[0] \
                        and child.proven[1] + 1 == target[1]:
                    return move
        alive = [(m, c) for m, c in items if c.proven is None or c.proven[0][mover] > 0.0]
        if alive:
            return max(alive, key=lambda mc: (mc[1].proven is not None
                                              and mc[1].proven[0][mover] >= 1.0,
                                              mc[1].visits))[0]
        return max(items, key=lambda mc: _preference(mc[1].proven, mover))[0]

    def _room(self) -> bool:
        """Whether the tree may grow by one more node (at most MAX_NODES a search)."""
        self._nodes += 1
        return self._nodes <= MAX_NODES

    def _budget(self, root: _Node | None = None):
        """Iteration numbers until the iterations or the seconds run out."""
        self._nodes = 0 if root is None else _size(root)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for i in range(self.iterations):
            if deadline is not None and i and i % 16 == 0 and time.perf_counter() > deadline:
                return
            yield i

    def _iterate(self, game: Game, root: _Node) -> None:
        """One iteration: select down the tree, add one node, play out, back up.

        With RAVE (``self.rave``) a new node is the untried move with the best
        all-moves-as-first value, the selection mixes those values in
        (:meth:`_select_rave`), and every node on the path learns, for each move
        its mover made later in the iteration (the tree's moves and the
        playout's, ``game.amaf_moves``), the reward that followed."""
        rave = self.rave
        node, path = root, [root]
        # Selection and expansion (none once the tree is full: memory stays bounded).
        while node.mover >= 0 and node.proven is None:
            untried = len(node.children) < len(node.moves)
            if untried and self._room():
                move = self._untried_rave(node) if rave else self.rng.choice(
                    [m for m in node.moves if m not in node.children])
                child = node.children[move] = _Node(game, game.apply(node.state, move))
                path.append(child)
                node = child
                break
            if untried:                   # the tree is full: play out from here
                break
            node = self._select_rave(node) if rave else self._select(node)
            path.append(node)
        # Chance and simultaneous nodes are not expanded: the playout samples them.
        if node.proven is not None:
            rewards, final = node.proven[0], node.state
        else:
            final = game.playout(node.state, self.rng)
            rewards = game.outcome(final).returns(game.num_players)
        for n in reversed(path):
            n.visits += 1
            for p, r in enumerate(rewards):
                n.value[p] += r
            if n.proven is None and n.children:
                _prove(n)
            if rave and n.mover >= 0:
                _learn_amaf(n, game.amaf_moves(n.state, final), rewards[n.mover])

    def _select(self, node: _Node) -> _Node:
        """UCT among the children not proven lost for the mover (if any are left)."""
        log_n = math.log(node.visits)
        player, c = node.mover, self.exploration
        best, best_score = None, -1.0
        for child in node.children.values():
            proven = child.proven
            if proven is not None and proven[0][player] <= 0.0:
                continue
            score = child.value[player] / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        if best is None:                  # every move loses: look at the slowest loss
            best = max(node.children.values(), key=lambda ch: _preference(ch.proven, player))
        return best

    # -- RAVE (all moves as first) ---------------------------------------------------
    def _untried_rave(self, node: _Node) -> Move:
        """The untried move with the best AMAF value (ties at random)."""
        amaf, best, best_score = node.amaf or {}, [], -1.0
        for move in node.moves:
            if move in node.children:
                continue
            stat = amaf.get(move)
            score = stat[1] / stat[0] if stat else 0.5
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def _select_rave(self, node: _Node) -> _Node:
        """UCT on values mixed with the AMAF values, weighted by
        beta = sqrt(k / (3n + k)) (k = ``rave``), among the children not proven
        lost for the mover."""
        log_n = math.log(node.visits)
        player, c, k, amaf = node.mover, self.exploration, self.rave, node.amaf or {}
        best, best_score = None, -1e9
        for move, child in node.children.items():
            proven = child.proven
            if proven is not None and proven[0][player] <= 0.0:
                continue
            n = child.visits
            q = child.value[player] / n
            stat = amaf.get(move)
            if stat:
                beta = math.sqrt(k / (3 * n + k))
                q = (1.0 - beta) * q + beta * stat[1] / stat[0]
            score = q + c * math.sqrt(log_n / n)
            if score > best_score:
                best, best_score = child, score
        if best is None:                  # every move loses: look at the slowest loss
            best = max(node.children.values(), key=lambda ch: _preference(ch.proven, player))
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
        rewards = game.outcome(game.playout(state, self.rng)).returns(game.num_players)
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
            final = game.playout(game.apply_joint(state, joint), self.rng)
            visits[k] += 1
            totals[k] += game.outcome(final).returns(game.num_players)[seat]
        return own[max(range(len(own)), key=lambda j: (visits[j], -j))]


class PerfectPlayer:
    """Plays a solved game perfectly: the best exact value, the fastest win or the
    slowest loss, ties broken at random (by its seed).

    Only for the games :func:`shibumi.maths.perfect.is_solved` knows; elsewhere
    it refuses at once, with the list of the games it can play.

    >>> from shibumi import load
    >>> game = load('spline')
    >>> state = game.parse_state('..../..../BBB./WWW.|.../.../...|../..|. 1')
    >>> PerfectPlayer(seed=1).choose(game, state)           # the line a1-g1 at once
    Move('Wg1')
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return "PerfectPlayer()"

    @staticmethod
    def check(game: Game) -> None:
        """Raise :class:`ValueError` unless the game is solved here."""
        from .maths.perfect import SOLVED_NAMES, is_solved
        if not is_solved(game):
            raise ValueError(f"'perfect' plays only solved games ({SOLVED_NAMES}), "
                             f"not {game.info.name}")

    def choose(self, game: Game, state: State, player: int | None = None) -> Move:
        from .maths.perfect import move_values
        self.check(game)
        _seat(game, state, player)
        values = move_values(game, state)
        best = max(score for score, _ in values.values())
        return self.rng.choice([m for m, (score, _) in values.items() if score == best])


def _size(root: _Node) -> int:
    """Nodes in a (kept) tree."""
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node.children.values())
    return count


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


PLAYERS = {"random": RandomPlayer, "mcts": MCTSPlayer, "perfect": PerfectPlayer}
SPECS = ("random, mcts, mcts:ITERATIONS (1-1,000,000), mcts@SECONDS (up to 600) "
         "or perfect (solved games only)")


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
    if name == "perfect" and not sep:
        return PerfectPlayer(seed)
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


__all__ = ["MCTSPlayer", "PerfectPlayer", "RandomPlayer", "make_player"]
