"""AI-versus-AI matches: how players compare, and how fair a game is under strong play.

:func:`arena` plays ``games`` games of one game between the players given
by spec (``random``, ``mcts:N``, ``mcts@S``, ``perfect``), rotating the seats
so every player sits in every seat equally often (game ``i`` gives seat
``k`` to player ``(k + i) mod n``).  Each player is seeded from the arena's
seed, the game and its seat, so a run is reproducible.

>>> result = arena('spline', ['random', 'mcts:60'], games=4, seed=1)
>>> result['games'], sorted(result['wins'])
(4, ['draw', 'mcts:60', 'random'])
>>> sum(result['wins'].values())
4
"""

from __future__ import annotations

import math

from .errors import ShibumiError
from .game import SIMULTANEOUS, TERMINAL
from .players import PerfectPlayer, make_player
from .registry import load

__all__ = ["arena", "wilson", "MAX_GAMES"]

#: Most games one arena plays (beyond that, run several).
MAX_GAMES = 100_000


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (``wins`` of ``n``).

    >>> [round(x, 3) for x in wilson(29, 30)]
    [0.833, 0.994]
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # (rounding must not leave the proportion itself outside at 0 or n wins)
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def _keys(specs: list[str]) -> list[str]:
    """How results name the players: their spec, or their place in the list
    (``'1'``, ``'2'``, ...) when two specs are the same."""
    if len(set(specs)) == len(specs):
        return list(specs)
    return [str(i + 1) for i in range(len(specs))]


def _game_for(name: str, count: int):
    """The game with ``count`` players, or a clear error if it cannot seat them."""
    game = load(name)
    if game.num_players != count:
        if "players" in game.params:
            game = load(name, players=count)
        else:
            info = game.info
            raise ShibumiError(f"{info.name} is for {game.num_players} player(s); "
                               f"{count} were given")
    return game


def arena(game_name: str, specs: list[str], games: int, seed: int = 0,
          progress=None) -> dict:
    """Play ``games`` games between the players of ``specs`` and count the results.

    Returns a dict: ``games``; ``players`` (the specs, in the order given);
    ``wins`` (for each player, named by its spec or its place in the list when
    two specs are the same, the games won, a shared win counting a fraction;
    ``draw`` for games nobody won); ``win_rate`` and ``interval`` (a 95%
    Wilson interval) per player; ``by_seat`` (wins per seat at the table, 1 =
    first to move, whoever sat there); ``scores`` (each player's mean score)
    when the game scores; ``game``.

    ``progress``, if given, wraps the iteration over the games (``tqdm`` works).
    """
    if type(games) is not int or not 1 <= games <= MAX_GAMES:
        raise ShibumiError(f"an arena plays 1 to {MAX_GAMES:,} games, not {games!r}")
    if not specs:
        raise ShibumiError("an arena needs at least one player")
    game = _game_for(game_name, len(specs))
    for spec in specs:
        player = make_player(spec, seed=0)          # refuses a bad spec before any game
        if isinstance(player, PerfectPlayer):
            player.check(game)
    n = len(specs)
    keys = _keys(specs)
    wins = dict.fromkeys(keys, 0.0)
    wins["draw"] = 0.0
    by_seat = [0.0] * n
    score_sums = [0.0] * n
    scored = 0
    rounds = range(games)
    for i in (progress(rounds) if progress is not None else rounds):
        order = [(k + i) % n for k in range(n)]        # seat k -> player order[k]
        seats = [make_player(specs[order[k]], seed=seed * 1_000_003 + i * 16 + k)
                 for k in range(n)]
        outcome = _play_one(game, seats, seed * 1_000_003 + i)
        if not outcome.winners:
            wins["draw"] += 1
        share = 1 / len(outcome.winners) if outcome.winners else 0.0
        for k in outcome.winners:
            wins[keys[order[k]]] += share
            by_seat[k] += share
        if outcome.scores is not None:
            scored += 1
            for k, s in enumerate(outcome.scores):
                score_sums[order[k]] += s
    result = {
        "game": game.info.name,
        "games": games,
        "players": list(specs),
        "wins": {k: _tidy(v) for k, v in wins.items()},
        "win_rate": {k: wins[k] / games for k in keys},
        "interval": {k: list(wilson(wins[k], games)) for k in keys},
        "by_seat": [_tidy(w) for w in by_seat],
    }
    if scored:
        result["scores"] = {keys[j]: score_sums[j] / scored for j in range(n)}
    return result


def _tidy(x: float):
    return int(x) if x == int(x) else round(x, 3)


def _play_one(game, seats, seed: int):
    match = game.new_match(seed=seed)
    while match.current_player != TERMINAL:
        mover = match.current_player
        if mover == SIMULTANEOUS:
            match.push_joint(seats[p].choose(game, match.state, p)
                             for p in range(game.num_players))
        else:
            match.push(seats[mover].choose(game, match.state))
    return match.outcome()
