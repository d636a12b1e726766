"""Benchmarks: random playouts per second through the public API.

Figures are printed as rates and as ratios against a baseline measured in
the same run: the generic playout loop of the base class (legal_moves and
apply on immutable states, what any game gets for free).
"""

from __future__ import annotations

import argparse
import json
import random
import time

import shibumi
from shibumi.analysis import perft, playouts
from shibumi.game import Game


def rate(fn, seconds: float) -> float:
    """Calls per second of fn() over about `seconds`."""
    n, start = 0, time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        fn()
        n += 1
    return n / (time.perf_counter() - start)


#: Issue 14's floor, from the start position of every game.
FLOOR_ACTIONS, FLOOR_MCTS = 100_000, 2_000


#: MCTS searches timed per game; the best counts.  One search of 300 iterations takes
#: a few hundredths of a second, so a garbage collection or a memo clearing during it
#: can halve its figure (as timeit, the fastest repeat is the one least disturbed).
MCTS_REPEATS = 3


def mcts_rate(game, state, seat, iterations: int) -> float:
    """Iterations per second of one seeded search from ``state``."""
    from shibumi.players import MCTSPlayer
    t = time.perf_counter()
    MCTSPlayer(iterations=iterations, seed=1).choose(game, state, seat)
    return iterations / (time.perf_counter() - t)


def game_table(seconds: float, iterations: int = 300, only=None) -> dict:
    """For every registered game (or those named in ``only``), from its start:
    random playouts and actions per second, the same against the base class's
    generic loop (the baseline, measured alongside), and MCTS iterations per
    second (the seat to move, or at a simultaneous choice the first seat with
    more than one option, best of :data:`MCTS_REPEATS` searches)."""
    from shibumi.game import SIMULTANEOUS
    table = {}
    for cls in shibumi.all_games():
        if only and cls.info.name.lower() not in only:
            continue
        game = cls()
        stats = playouts(game, seconds=seconds, seed=1)
        rng = random.Random(1)
        first = game.initial_state(random.Random(1))         # the start playouts() uses
        generic = rate(lambda: Game.random_playout(game, first, rng), seconds)
        state = game.new_match(seed=1).state            # opening draws made
        seat = None
        if game.current_player(state) == SIMULTANEOUS:      # a seat with a real choice
            seat = next((p for p in range(game.num_players)
                         if len(game.legal_moves(state, p)) > 1), 0)
        mcts = max(mcts_rate(game, state, seat, iterations) for _ in range(MCTS_REPEATS))
        table[cls.info.name] = {
            "playouts_per_second": round(stats.playouts_per_second),
            "actions_per_second": round(stats.playouts_per_second * stats.mean_length),
            "ratio_to_generic": round(stats.playouts_per_second / generic, 1),
            "mcts_iterations_per_second": round(mcts)}
    return table


def print_table(games: dict) -> None:
    """One row per game; "below" marks a row under the floor."""
    print(f"{'game':<20}{'playouts/s':>11}{'actions/s':>11}{'x generic':>10}{'MCTS it/s':>11}")
    below = 0
    for name, r in games.items():
        short = (r["actions_per_second"] < FLOOR_ACTIONS
                 or r["mcts_iterations_per_second"] < FLOOR_MCTS)
        below += short
        print(f"{name:<20}{r['playouts_per_second']:>11,}{r['actions_per_second']:>11,}"
              f"{r['ratio_to_generic']:>10}{r['mcts_iterations_per_second']:>11,}"
              f"{'  below' if short else ''}")
    print(f"{len(games) - below} of {len(games)} games meet the floor "
          f"({FLOOR_ACTIONS:,} actions/s and {FLOOR_MCTS:,} MCTS iterations/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--game-seconds", type=float, default=0.5,
                        help="seconds of playouts for each game in the all-games table")
    parser.add_argument("--only", default="",
                        help="comma-separated game names: their rows only, nothing else")
    args = parser.parse_args()
    try:                         # names or aliases, each a registered game
        only = {shibumi.load(name).info.name.lower()
                for name in args.only.split(",") if name.strip()}
    except shibumi.UnknownGameError as err:
        parser.error(str(err))
    results = {"games": game_table(args.game_seconds, only=only)}
    if only:
        print_table(results["games"]) if not args.json else print(json.dumps(results))
        return
    for name in ("spline", "span"):
        game = shibumi.load(name)
        start = game.initial_state()
        rng = random.Random(1)
        generic = rate(lambda: Game.random_playout(game, start, rng), args.seconds)
        stats = playouts(game, seconds=args.seconds, seed=1)
        results[name] = {"playouts_per_second": round(stats.playouts_per_second),
                         "generic_loop_per_second": round(generic),
                         "ratio_to_generic": round(stats.playouts_per_second / generic, 2)}
    t = time.perf_counter()
    perft(shibumi.load("spline"), 6)
    results["spline_perft_6_seconds"] = round(time.perf_counter() - t, 2)
    try:
        from shibumi.maths.solve import solve_spline
        from shibumi.maths.spuzzle import solve_spuzzle
        from shibumi.maths.verify import verify_span
    except ImportError:          # numpy missing: the engine alone was measured
        pass
    else:
        t = time.perf_counter()
        verify_span()
        results["span_exhaustive_check_seconds"] = round(time.perf_counter() - t, 2)
        t = time.perf_counter()
        solve_spline()
        results["spline_solve_seconds"] = round(time.perf_counter() - t, 2)
        t = time.perf_counter()
        solve_spuzzle()
        results["spuzzle_solve_seconds"] = round(time.perf_counter() - t, 2)
    if args.json:
        print(json.dumps(results))
        return
    print_table(results["games"])
    for name in ("spline", "span"):
        r = results[name]
        print(f"{name:<7} random playouts: {r['playouts_per_second']:>8,}/s "
              f"(generic loop {r['generic_loop_per_second']:,}/s, "
              f"x{r['ratio_to_generic']})")
    print(f"spline perft 6: {results['spline_perft_6_seconds']} s")
    for key in ("span_exhaustive_check_seconds", "spline_solve_seconds",
                "spuzzle_solve_seconds"):
        if key in results:
            print(f"{key.replace('_', ' ')}: {results[key]}")


if __name__ == "__main__":
    main()
