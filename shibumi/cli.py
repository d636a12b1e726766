"""Command line: ``python -m shibumi`` or ``shibumi``.

Sub-commands: list, rules, play, perft, verify, solve, arena, playouts.  Errors print one line
on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from .errors import ShibumiError
from .registry import all_games, load


class CLIError(Exception):
    """Bad usage; reported as one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would print usage too: keep it to one line
        raise CLIError(message)


def _cmd_list(args) -> None:
    rows = []
    for cls in all_games():
        i = cls.info
        players = str(i.min_players) if i.min_players == i.max_players \
            else f"{i.min_players}-{i.max_players}"
        rows.append({"name": i.name, "aliases": list(i.aliases), "designer": i.designer,
                     "year": i.year, "players": players, "complexity": i.complexity,
                     "family": i.family, "source": i.source, "summary": i.summary})
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    print(f"{'game':<12}{'players':<9}{'cx':<4}{'family':<13}{'designer (year)'}")
    for r in rows:
        print(f"{r['name']:<12}{r['players']:<9}{r['complexity']:<4}{r['family']:<13}"
              f"{r['designer']} ({r['year']})")
        print(f"{'':<12}{r['summary']}")


def _cmd_rules(args) -> None:
    game = load(args.game)
    i = game.info
    print(f"{i.name} — {i.designer} ({i.year}); {i.family}; "
          f"{i.min_players}-{i.max_players} players; complexity {i.complexity}")
    print(f"Source: {i.source}\n")
    print(game.rules.rstrip())
    if game.notes:
        print("\nRules notes\n" + game.notes.rstrip())


def _cmd_perft(args) -> None:
    from .analysis import perft_divide
    game = load(args.game)
    state = game.parse_state(args.position) if args.position is not None else None
    if args.depth < 0:
        raise CLIError("depth must be 0 or more")
    if args.depth == 0:
        print(1)
        return
    _check_perft_cost(game, args.depth, state, args.force)
    divide = perft_divide(game, args.depth, state, progress=_progress_bar(args.depth >= 8))
    if args.divide:
        for text, count in divide.items():
            print(f"{text}: {count}")
    print(sum(divide.values()))


#: Tree nodes a perft may walk without --force (hours here, the memo helping).
PERFT_LIMIT = 10 ** 11
#: Depths past this are refused outright: no game here is that long and interesting.
PERFT_MAX_DEPTH = 200


def _check_perft_cost(game, depth: int, state, force: bool) -> None:
    """Say what a count will cost before starting it; refuse what cannot finish."""
    from .analysis import estimate_nodes
    if depth > PERFT_MAX_DEPTH:
        raise CLIError(f"depth {depth} is more than any game needs; at most {PERFT_MAX_DEPTH}")
    nodes = estimate_nodes(game, depth, state, probes=100)
    if nodes > PERFT_LIMIT and not force:
        raise CLIError(f"perft {game.info.name.lower()} {depth} would walk about {nodes:.1e} "
                       f"positions, more than {PERFT_LIMIT:.0e} (hours or years); "
                       "add --force to run it anyway (Ctrl+C stops it)")
    if nodes > 10 ** 8:
        print(f"about {nodes:.1e} positions to walk (fewer where they repeat); Ctrl+C stops",
              file=sys.stderr, flush=True)


def _cmd_verify(args) -> None:
    """Exhaustive checks of the texts' guarantees (needs numpy)."""
    from .maths.verify import verify_span
    result = verify_span(progress=_progress_bar(not args.json, "colourings", "block"))
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['colourings']:,} colourings of the 25 visible balls of a full pyramid:")
    for key in ("white", "black", "both", "neither"):
        print(f"  {key:<8}{result[key]:>12,}")
    verdict = "holds" if result["both"] == result["neither"] == 0 else "FAILS"
    print(f"Span always has exactly one winner: {verdict}")


def _cmd_solve(args) -> None:
    """Solve a game from its start under perfect play."""
    if args.game == "spuzzle":
        _solve_spuzzle(args)
        return
    unit = "class"
    if args.game == "span":
        from .maths.span_solve import solve_span as solve
    elif args.game == "spline":
        from .maths.solve import solve_spline as solve
    else:                                   # spodd, sparro, sponnect
        from .maths.placement_solve import SOLVERS
        solve, unit = SOLVERS[args.game], "move"
    result = solve(progress=_progress_bar(not args.json, "first moves", unit))
    if args.json:
        keys = ("winner", "length", "winning_first_moves", "score", "principal_variation",
                "nodes", "seconds")
        print(json.dumps({k: result[k] for k in keys if k in result}))
        return
    who = {0: "nobody (a draw)", 1: "White (player 1)", 2: "Black (player 2)"}[result["winner"]]
    if result["length"] is None:
        ends = ""
    elif args.game in _SOLVE_UNITS:
        ends = f"; the game lasts {result['length']} {_SOLVE_UNITS[args.game]}"
    else:
        ends = f"; the game ends with ball {result['length']}"
    print(f"{args.game.capitalize()} under perfect play: {who} wins{ends}.")
    if "winning_first_moves" in result:
        sep = ", " if any(" " in m for m in result["winning_first_moves"]) else " "
        print("Winning first moves: " + (sep.join(result["winning_first_moves"]) or "none"))
    print("Principal variation: " + " ".join(result["principal_variation"]))
    print(f"({result['nodes']:,} nodes in {result['seconds']:.1f} s)")


#: What a solved game's length counts, when it is not the balls on the pyramid.
_SOLVE_UNITS = {"spodd": "balls", "sparro": "placements", "sponnect": "actions"}


def _solve_spuzzle(args) -> None:
    """The solitaire's highest possible score, with an optimal final position."""
    from .maths.spuzzle import solve_spuzzle
    result = solve_spuzzle(progress=_progress_bar(not args.json, "gap sets", "set"))
    if args.json:
        keys = ("score", "gaps", "position", "line", "refuted", "nodes", "seconds")
        print(json.dumps({k: result[k] for k in keys}))
        return
    print(f"Spuzzle: the highest possible score is {result['score']}.")
    refuted = ", ".join(str(s) for s in result["refuted"])
    print(f"No arrangement of {refuted} balls avoids a group of three.")
    print(f"An optimal final position, empty at {' '.join(result['gaps'])}: "
          f"{result['position']}")
    print("Placed in this order: " + " ".join(result["line"]))
    print(f"({result['nodes']:,} nodes in {result['seconds']:.1f} s)")


def _progress_bar(wanted: bool, desc: str = "first moves", unit: str = "move"):
    """tqdm over the first moves for long counts, when tqdm is installed."""
    if not wanted:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return lambda items: tqdm(items, desc=desc, unit=unit, leave=False)


def _cmd_playouts(args) -> None:
    from .analysis import playouts
    game = load(args.game)
    if not math.isfinite(args.seconds) or args.seconds <= 0:
        raise CLIError("--seconds must be a positive number of seconds")
    stats = playouts(game, seconds=args.seconds, seed=args.seed)
    if args.json:
        print(json.dumps(stats.as_dict()))
        return
    d = stats.as_dict()
    print(f"{d['games']} games in {stats.seconds:.2f} s "
          f"({d['playouts_per_second']} playouts/s), mean length {d['mean_length']}")
    for name, count in d["wins"].items():
        print(f"  {name}: {count} ({100 * count / max(1, d['games']):.1f}%)")


def _cmd_play(args) -> None:
    from .play import play_in_terminal
    game = load(args.game)
    if args.resume is not None:
        game.new_match(record=args.resume)          # a bad record fails here, in one line
    if hasattr(sys.stdin, "reconfigure"):           # a stray byte is a bad move, not a crash
        sys.stdin.reconfigure(errors="replace")
    play_in_terminal(game, seats=args.human, ai=args.ai, seed=args.seed, record=args.resume)


def _cmd_arena(args) -> None:
    from .arena import arena
    specs = [s.strip() for s in args.players.split(",")]
    if any(not s for s in specs):
        raise CLIError(f"--players takes specs separated by commas, e.g. mcts:1000,random; "
                       f"got {args.players!r}")
    result = arena(args.game, specs, args.games, args.seed,
                   progress=_progress_bar(not args.json, "games", "game"))
    if args.json:
        print(json.dumps(result))
        return
    games = result["games"]
    print(f"{result['game']}: {games} games, seats rotated")
    for key, spec in zip(result["win_rate"], result["players"]):
        low, high = result["interval"][key]
        name = spec if key == spec else f"{key} ({spec})"
        line = (f"  {name:<18} wins {result['wins'][key]:>6} = "
                f"{100 * result['win_rate'][key]:5.1f}%  (95%: {100 * low:.1f}-{100 * high:.1f}%)")
        if "scores" in result:
            line += f"  mean score {result['scores'][key]:.2f}"
        print(line)
    print(f"  {'draws':<18}      {result['wins']['draw']:>6}")
    seats = ", ".join(f"seat {k + 1} {w}" for k, w in enumerate(result["by_seat"]))
    print(f"  wins by seat: {seats}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="shibumi", description="The Shibumi game system.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    p = sub.add_parser("list", help="list the registered games")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_list)
    p = sub.add_parser("rules", help="print a game's rules and rules notes")
    p.add_argument("game")
    p.set_defaults(func=_cmd_rules)
    p = sub.add_parser("play", help="play a game against the AI in the terminal")
    p.add_argument("game")
    p.add_argument("--human", type=int, action="append", metavar="SEAT",
                   help="seat played by a human (1 = first player; repeatable; default 1)")
    p.add_argument("--ai", default="mcts",
                   help="a strength (beginner ... strongest), random, mcts (about a second a move), "
                        "mcts:ITERATIONS, mcts@SECONDS or perfect (solved games)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--resume", metavar="RECORD",
                   help="take up a saved game: the record printed when a game stops")
    p.set_defaults(func=_cmd_play)
    p = sub.add_parser("perft", help="count the leaves of the move tree at a depth")
    p.add_argument("game")
    p.add_argument("depth", type=int)
    p.add_argument("--position", help="state text: '<position> <player to move>'")
    p.add_argument("--divide", action="store_true", help="also print the count below each first move")
    p.add_argument("--force", action="store_true",
                   help="count even when the estimate says it will take hours")
    p.set_defaults(func=_cmd_perft)
    p = sub.add_parser("verify", help="exhaustive checks of a game's guarantee")
    p.add_argument("game", choices=["span"])
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_verify)
    p = sub.add_parser("solve", help="solve a game under perfect play")
    p.add_argument("game", choices=["spline", "span", "spuzzle", "spodd", "sparro",
                                    "sponnect"])
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_solve)
    p = sub.add_parser("arena", help="AI-versus-AI matches with the seats rotated")
    p.add_argument("game")
    p.add_argument("--players", required=True,
                   help="comma-separated specs, one per seat: random, mcts:N, mcts@S, perfect")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_arena)
    p = sub.add_parser("playouts", help="statistics of uniformly random games")
    p.add_argument("game")
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_playouts)
    return parser


def main(argv: list[str] | None = None) -> int:
    if sys.stdout is None:                # started with stdout closed (`>&-`)
        return _fail("standard output is closed; nothing can be printed", 1)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 0
        args.func(args)
        sys.stdout.flush()
    except (CLIError, ShibumiError, ValueError) as exc:
        return _fail(str(exc), 2)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except MemoryError:
        return _fail("out of memory; ask for less (a smaller depth, fewer iterations)", 1)
    except BrokenPipeError:
        _silence_stdout()                 # the reader left (e.g. `| head`): not an error
        return 0
    except OSError as exc:
        _silence_stdout()
        return _fail(f"cannot write the output: {exc.strerror or exc}", 1)
    return 0


def _fail(message: str, status: int) -> int:
    """One line on stderr (cut short if huge), and the exit status."""
    if len(message) > 500:
        message = message[:500] + f"… ({len(message):,} characters)"
    try:
        print(f"shibumi: error: {message}", file=sys.stderr)
    except (OSError, AttributeError):      # stderr closed too
        pass
    return status


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again."""
    import os
    try:
        sys.stdout.flush = lambda: None   # the unwritable buffer is dropped
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
