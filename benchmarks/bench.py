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


def game_table(seconds: float, iterations: int = 300) -> dict:
    """For every registered game, from its start: random playouts and actions per
    second, and MCTS iterations per second (the seat to move, or at a
    simultaneous choice the first seat with more than one option)."""
    from shibumi.game import SIMULTANEOUS
    from shibumi.players import MCTSPlayer
    table = {}
    for cls in shibumi.all_games():
        game = cls()
        stats = playouts(game, seconds=seconds, seed=1)
        state = game.new_match(seed=1).state            # opening draws made
        seat = None
        if game.current_player(state) == SIMULTANEOUS:      # a seat with a real choice
            seat = next((p for p in range(game.num_players)
                         if len(game.legal_moves(state, p)) > 1), 0)
        t = time.perf_counter()
        MCTSPlayer(iterations=iterations, seed=1).choose(game, state, seat)
        mcts = iterations / (time.perf_counter() - t)
        table[cls.info.name] = {
            "playouts_per_second": round(stats.playouts_per_second),
            "actions_per_second": round(stats.playouts_per_second * stats.mean_length),
            "mcts_iterations_per_second": round(mcts)}
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--game-seconds", type=float, default=0.5,
                        help="seconds of playouts for each game in the all-games table")
    args = parser.parse_args()
    results = {"games": game_table(args.game_seconds)}
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
    print(f"{'game':<12}{'playouts/s':>12}{'actions/s':>12}{'MCTS it/s':>11}")
    for name, r in results["games"].items():
        print(f"{name:<12}{r['playouts_per_second']:>12,}{r['actions_per_second']:>12,}"
              f"{r['mcts_iterations_per_second']:>11,}")
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
