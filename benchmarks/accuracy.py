"""How well the MCTS player plays Spline, judged by the exact solver.

Two figures (issue: "a stronger search"):

* **value kept**: positions from random games where the side to move is not
  lost and some move would throw the value away (a win or a draw becomes a
  worse result); the share in which MCTS picks a move that keeps the value.
* **win held**: games in which MCTS plays Black (Spline is a win for Black)
  against a perfect White who resists as long as possible (ties broken at
  random); how many Black still wins.

Both run MCTS at a fixed number of iterations (1,000 by default) with a seed
per position or game, so a run is reproducible.

    python benchmarks/accuracy.py [--iterations 1000] [--positions 400] [--games 30]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from shibumi import load
from shibumi.maths.solve import SplineSolver, move_values
from shibumi.players import MCTSPlayer, PerfectPlayer

RANK = {"loss": 0, "draw": 1, "win": 2}


def sample_positions(game, solver, count: int, seed: int) -> list:
    """States from random games (8 to 24 balls) where the mover is not lost and
    some move would make the result worse."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        stop = rng.randint(8, 24)
        while not game.is_terminal(state) and state.position.occupied.bit_count() < stop:
            state = game.random_step(state, rng)
        if game.is_terminal(state):
            continue
        values = move_values(state.position, solver)
        ranks = {RANK[v.result] for v in values.values()}
        best = max(ranks)
        if best > 0 and min(ranks) < best:
            found.append((state, best, values))
    return found


def value_kept(game, solver, iterations: int, positions: int, seed: int, progress=None):
    samples = sample_positions(game, solver, positions, seed)
    kept = 0
    for i, (state, best, values) in enumerate(progress(samples) if progress else samples):
        move = MCTSPlayer(iterations=iterations, seed=i).choose(game, state)
        kept += RANK[values[move.point].result] == best
    return kept, len(samples)


def win_held(game, iterations: int, games: int, progress=None):
    """Black (MCTS) against a perfect White; Black's wins."""
    held = 0
    for g in (progress(range(games)) if progress else range(games)):
        white = PerfectPlayer(seed=g)
        black = MCTSPlayer(iterations=iterations, seed=g)
        state = game.initial_state()
        while not game.is_terminal(state):
            seat = game.current_player(state)
            state = game.apply(state, (white, black)[seat].choose(game, state))
        held += game.outcome(state).winners == (1,)
    return held, games


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from tqdm import tqdm

    def bar(what):
        return None if args.json else (lambda it: tqdm(it, desc=what, leave=False))

    game = load("spline")
    start = time.perf_counter()
    kept, total = value_kept(game, SplineSolver(), args.iterations, args.positions,
                             args.seed, bar("positions"))
    held, games = win_held(game, args.iterations, args.games, bar("games"))
    result = {"iterations": args.iterations,
              "value_kept": kept, "positions": total, "value_kept_share": kept / total,
              "win_held": held, "games": games,
              "seconds": round(time.perf_counter() - start, 1)}
    if args.json:
        json.dump(result, sys.stdout)
        print()
        return
    print(f"Spline, MCTS at {args.iterations:,} iterations against the exact solver:")
    print(f"  value kept where some move throws it away: {kept}/{total} "
          f"= {100 * kept / total:.1f}% (goal: 99%)")
    print(f"  Black's win held against a perfect White:  {held}/{games} (goal: 29/30)")
    print(f"  ({result['seconds']} s)")


if __name__ == "__main__":
    main()
