"""Playing a game in the terminal: humans against the AI, or against each other.

Each human sees only what their seat may see (``game.observe``).  Secret
simultaneous choices are asked seat by seat and revealed together; with
several humans at one screen the board is hidden while the device passes.
A game that stops (``quit``, end of input, Ctrl+C) prints its record, and
``shibumi play GAME --resume RECORD`` takes it up again.
"""

from __future__ import annotations

import shlex

from .errors import ShibumiError
from .game import SIMULTANEOUS, Game, Match
from .interaction import AI, HUMAN, Table

PYRAMID_HELP = """\
Commands: a move (e.g. {example}); 'moves' lists the legal ones; 'undo' takes back
your last move; 'save' prints the game's record; 'help'; 'quit' (prints the record).
The board is drawn from above, each square showing its highest ball: W, B and R
are white, black and red balls (lower case w, b, r on levels 1 and 3, so the
levels stand apart), '.' an empty hole and '+' an empty point above the board
that can be played (its platform is complete).  Files a-g run left to right,
ranks 1-7 bottom to top: holes are at odd files and ranks (a1 ... g7), level 1 at
even ones (b2 ... f6), level 2 at c3 c5 e3 e5 and the apex at d4.  Where two points share a square, a
long name gives the level: c3.0 (board), c3.2 (level 2).  A move is written as
the game lists it: d6 (a ball on d6), Rd6 (a red one), xb2 (remove b2),
b2>d4 (move a ball), b4~d4 (slide), Wb4+e (enter eastwards), pass, =R (choose)."""


HELP_COMMANDS = """
Commands: a move (e.g. {example}); 'moves' lists the legal ones; 'undo' takes back
your last move; 'save' prints the game's record; 'help'; 'quit' (prints the record)."""


class _Stop(Exception):
    """The human asked to stop, or the input ended."""


def play_in_terminal(game: Game, seats=None, ai: str = "mcts", seed=None,
                     read=input, write=print, record: str | None = None) -> Match:
    """Play to the end (or until stopped) and return the match.

    ``seats``: the human seats, 1-based (default: the first).  ``record``
    resumes a saved game.  ``read``/``write`` are replaceable for tests.
    The rules of play (whose turn, secret choices, who sees what, undo) are
    :class:`shibumi.interaction.Table`'s, as on the book's boards.
    """
    humans = sorted({s - 1 for s in (seats or [1])})
    bad = [s + 1 for s in humans if not 0 <= s < game.num_players]
    if bad:
        raise ShibumiError(f"--human seats must be 1-{game.num_players}, got {bad}")
    kinds = [HUMAN if p in humans else AI for p in range(game.num_players)]
    table = Table(game, seats=kinds, ai=ai, seed=seed, record=record)
    write(f"{game.info.name}: you play "
          f"{', '.join(game.player_name(s) for s in humans)}. "
          f"Type a move like {_example(table)}; 'help' explains the board and the commands.")
    try:
        while not table.match.is_over():
            if table.ai_due:
                _ai_turn(table, write)
            elif table.covered:
                write("\n" * 30 + f"Pass the device to {game.player_name(table.viewer)}, "
                      "then press Enter.")
                _ask(read, "")
                table.reveal()
            else:
                _human_turn(table, read, write)
    except (_Stop, EOFError, KeyboardInterrupt):
        write(_resume_line(table.match))
        return table.match
    write(game.describe(table.match.state))
    return table.match


def _ai_turn(table: Table, write) -> None:
    mover = table.match.current_player
    labels = table.moves_now()[1] if mover >= 0 else {}
    state = table.match.state
    move = table.ai_step()
    if mover >= 0 and move is not None:
        secret = table.game.secret_move(state, move)    # the human reads only these words
        name = table.game.player_name(mover)
        write(f"{name} {secret}" if secret else f"{name} plays {labels.get(move, move.text())}")
    else:
        write(table.last_ai)


def _human_turn(table: Table, read, write) -> None:
    game, seat = table.game, table.mover
    simultaneous = table.match.current_player == SIMULTANEOUS
    write(_board_text(table))
    prompt = f"{game.player_name(seat)}{' (secret)' if simultaneous else ''}> "
    labels = table.moves_now()[1]
    while True:
        text = _ask(read, prompt)
        done = _command(table, text, write)
        if done is not None:
            if done:
                return
            continue
        played = table.choose(text, player=seat)
        if played is None:
            write(table.message)
            continue
        if not simultaneous:
            write(f"{game.player_name(seat)} plays {labels.get(played, played.text())}")
        elif table.match.current_player == SIMULTANEOUS:
            write(f"{game.player_name(seat)}'s choice is locked in.")
        else:
            write(table.last_ai)          # the last human chose: every choice revealed
        return


def _board_text(table: Table) -> str:
    """The board as the seat to move may see it, what the game says beside it in
    players' words (stocks, hands, scores), the last move and whose turn it is."""
    view = table.view()
    lines = [table.game.board_of(table.shown_state(), table.board_seat()).diagram()]
    lines += view["status"]
    if view["history"]:
        lines.append(f"Last move: {view['history'][-1]['text']}")
    lines.append(view["turn"])
    return "\n".join(lines)


def _command(table: Table, text: str, write) -> bool | None:
    """Run a command: None when the text is a move, True when the position
    changed (undo), False when the same player is asked again."""
    if text in ("quit", "q", "exit"):
        raise _Stop
    if text in ("help", "?"):
        board = table.game.board
        help_text = PYRAMID_HELP if board.kind == "pyramid" else board.help() + HELP_COMMANDS
        write(help_text.format(example=_example(table)))
    elif text == "moves":
        write(" ".join(o["label"] for o in table.view()["options"]))
    elif text == "save":
        write(_resume_line(table.match))
    elif text == "undo":
        table.undo()
        write(table.message)
        return True
    else:
        return None
    return False


def _ask(read, prompt: str) -> str:
    text = read(prompt)
    return text.strip() if isinstance(text, str) else ""


def _example(table: Table) -> str:
    """A legal move to show as an example: the first the awaited seat may play."""
    options = table.options()
    if options:
        return table.moves_now()[1].get(options[0], options[0].text())
    return "d6"


def _resume_line(match: Match) -> str:
    record = match.record()
    if not record:
        return "Nothing played yet; nothing to save."
    name = match.game.info.name.lower()
    return f"Game saved. To resume: shibumi play {shlex.quote(name)} " \
           f"--resume {shlex.quote(record)}"
