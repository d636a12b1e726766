"""Playing a game in the terminal: a human against the AI (or several humans)."""

from __future__ import annotations

import sys

from .errors import ShibumiError
from .game import Game, TERMINAL
from .players import make_player

HELP = ("Type a move (e.g. d6; 'moves' lists them), 'undo' to take back your last "
        "move, 'help', or 'quit'.")


def play_in_terminal(game: Game, seats=None, ai: str = "mcts", seed=None,
                     read=input, write=print) -> None:
    """Play to the end; `read`/`write` are replaceable so tests can drive it."""
    humans = {s - 1 for s in (seats or [1])}
    bad = [s + 1 for s in humans if not 0 <= s < game.num_players]
    if bad:
        raise ShibumiError(f"--human seats must be 1-{game.num_players}, got {bad}")
    bot = make_player(ai, seed)
    match = game.new_match(seed=seed)
    write(f"{game.info.name}: you play "
          f"{', '.join(game.player_name(s) for s in sorted(humans))}. {HELP}")
    while match.current_player != TERMINAL:
        player = match.current_player
        write(game.describe(match.state))
        if player not in humans:
            move = bot.choose(game, match.state)
            write(f"{game.player_name(player)} plays {match.move_text(move)}")
            match.push(move)
            continue
        try:
            text = read(f"{game.player_name(player)}> ").strip()
        except EOFError:
            write("bye")
            return
        if text in ("quit", "q", "exit"):
            return
        if text in ("help", "?"):
            write(HELP)
        elif text == "moves":
            write(" ".join(sorted(match.move_text(m) for m in match.legal_moves())))
        elif text == "undo":
            _undo(match, humans, write)
        else:
            try:
                match.push(text)
            except ShibumiError as exc:
                write(f"Not played: {exc}")
    write(game.describe(match.state))


def _undo(match, humans, write) -> None:
    """Take back moves until it is a human's turn again, before their last move."""
    if not any(True for _ in match.history):
        write("Nothing to undo.")
        return
    match.pop()
    while match.history and match.current_player not in humans:
        match.pop()


if __name__ == "__main__":  # pragma: no cover
    from .registry import load
    play_in_terminal(load(sys.argv[1] if len(sys.argv) > 1 else "spline"))
