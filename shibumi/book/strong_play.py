"""How the first player fares when both sides search: the table behind each
chapter's "by the numbers" line on play under search.

Random play says little about balance: a game can be even between random
players and lopsided between good ones.  So for every registered game, with
its default options, this plays a seeded :func:`shibumi.arena.arena` of MCTS
against MCTS at :data:`ITERATIONS` iterations a move (seats rotated, though
with equal players that only varies the seeds), and records who won by seat.
Hundreds of searched games are too slow for every book build, so the table is
generated once and kept in ``strong_play.json`` beside this module; the book
reads it, and a test replays the cheapest entry exactly, so a table that no
longer matches the engine is caught.

Regenerate it (two processes by default; about an hour on a small
machine, Spack and Sensei the longest) after changing the search or a game's rules::

    python -m shibumi.book.strong_play [--jobs 2] [--only spline,span]
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ..arena import arena, wilson
from ..registry import all_games, load

#: Where the table lives (package data, beside this module).
TABLE = Path(__file__).with_name("strong_play.json")
#: The search each side runs, the games per game, and the seed.
ITERATIONS = 200
GAMES = 30
SEED = 2026


def play(name: str, iterations: int = ITERATIONS, games: int = GAMES,
         seed: int = SEED) -> dict:
    """One game's entry: an arena of identical MCTS players, by seat.

    >>> entry = play('spline', iterations=20, games=2)
    >>> entry['games'], len(entry['by_seat'])
    (2, 2)
    """
    players = load(name).num_players
    start = time.perf_counter()
    result = arena(name, [f"mcts:{iterations}"] * players, games, seed=seed)
    return {"iterations": iterations, "games": games, "seed": seed,
            "players": players, "by_seat": result["by_seat"],
            "draws": result["wins"]["draw"],
            "seconds": round(time.perf_counter() - start, 1)}


def contested(name: str) -> bool:
    """Whether a game has a first player to judge: two or more players, not
    all on the same side."""
    game = load(name)
    return game.num_players >= 2 and not game.info.cooperative


def read_table() -> dict:
    """The stored table: game name (lower case) to its entry; {} if none yet."""
    return json.loads(TABLE.read_text()) if TABLE.exists() else {}


def first_player_row(name: str, table: dict | None = None):
    """The chapter's row on the first player under search, or None if the
    table has no entry for the game (a solitaire or a cooperative game has none)."""
    entry = (read_table() if table is None else table).get(name.lower())
    if entry is None:
        return None
    won, games = entry["by_seat"][0], entry["games"]
    low, high = wilson(won, games)
    draws = f", {entry['draws']:g} drawn" if entry["draws"] else ""
    return (f"First player under search (MCTS, {entry['iterations']} iterations a move, "
            f"both sides)",
            f"won {won:g} of {games} ({won / games:.0%}; 95% interval "
            f"{low:.0%} to {high:.0%}){draws}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated game names")
    args = parser.parse_args(argv)
    from tqdm import tqdm

    only = {n.strip().lower() for n in args.only.split(",") if n.strip()}
    names = [cls.info.name.lower() for cls in all_games() if contested(cls.info.name)
             and (not only or cls.info.name.lower() in only)]
    table = read_table()
    with ProcessPoolExecutor(args.jobs) as pool:
        for name, entry in tqdm(zip(names, pool.map(play, names)), total=len(names),
                                desc="games"):
            table[name] = entry
            TABLE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
