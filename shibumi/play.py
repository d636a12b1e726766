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
from .game import SIMULTANEOUS, TERMINAL, Game, Match
from .players import make_player

HELP = """\
Commands: a move (e.g. {example}); 'moves' lists the legal ones; 'undo' takes back
your last move; 'save' prints the game's record; 'help'; 'quit' (prints the record).
The board is seen from above: W, B and R are the top ball of each column, '.' an
empty hole; files a-g run left to right, ranks 1-7 bottom to top.  Holes are at odd
files and ranks, level 1 at even ones, level 2 at c3 c5 e3 e5, the apex at d4.
Long names give the level where two share a square: c3.0 (board), c3.2 (level 2)."""


class _Stop(Exception):
    """The human asked to stop, or the input ended."""


def play_in_terminal(game: Game, seats=None, ai: str = "mcts", seed=None,
                     read=input, write=print, record: str | None = None) -> Match:
    """Play to the end (or until stopped) and return the match.

    ``seats``: the human seats, 1-based (default: the first).  ``record``
    resumes a saved game.  ``read``/``write`` are replaceable for tests.
    """
    humans = sorted({s - 1 for s in (seats or [1])})
    bad = [s + 1 for s in humans if not 0 <= s < game.num_players]
    if bad:
        raise ShibumiError(f"--human seats must be 1-{game.num_players}, got {bad}")
    bot = make_player(ai, seed)
    match = game.new_match(seed=seed, record=record)
    example = _example(match)
    write(f"{game.info.name}: you play "
          f"{', '.join(game.player_name(s) for s in humans)}. "
          f"Type a move like {example}; 'help' explains the board and the commands.")
    try:
        while match.current_player != TERMINAL:
            if match.current_player == SIMULTANEOUS:
                _joint_turn(match, humans, bot, read, write)
            elif match.current_player in humans:
                _human_turn(match, humans, read, write)
            else:
                mover = match.current_player
                move = bot.choose(game, match.state, mover)
                text = match.move_text(move)
                match.push(move)
                write(f"{game.player_name(mover)} plays {text}")
    except (_Stop, EOFError, KeyboardInterrupt):
        write(_resume_line(match))
        return match
    write(game.describe(match.state))
    return match


def _view(match: Match, seat: int):
    """The state as ``seat`` may see it (everything once the game is over)."""
    return match.state if match.is_over() else match.game.observe(match.state, seat)


def _human_turn(match: Match, humans: list[int], read, write) -> None:
    game, seat = match.game, match.current_player
    _hand_over(match, humans, seat, read, write)
    write(game.describe(_view(match, seat)))
    while True:
        text = _ask(read, f"{game.player_name(seat)}> ")
        if _command(match, humans, text, write):
            if text == "undo":
                return
            continue
        try:
            move = match.parse(text)
        except ShibumiError as exc:
            write(f"Not played: {exc}")
            continue
        text = match.move_text(move)
        match.push(move)
        write(f"{game.player_name(seat)} plays {text}")
        return


def _joint_turn(match: Match, humans: list[int], bot, read, write) -> None:
    """Every seat chooses in secret; the choices are shown together."""
    game = match.game
    chosen = {}
    for seat in range(game.num_players):
        if seat not in humans:
            chosen[seat] = bot.choose(game, match.state, seat)
            continue
        _hand_over(match, humans, seat, read, write)
        write(game.describe(_view(match, seat)))
        legal = game.legal_moves(match.state, seat)
        while seat not in chosen:
            text = _ask(read, f"{game.player_name(seat)} (secret)> ")
            if text == "moves":
                write(" ".join(sorted(m.text() for m in legal)))
            elif text in ("help", "?", "save"):
                write(HELP.format(example=legal[0].text()) if text != "save"
                      else _resume_line(match))
            elif text in ("quit", "q", "exit"):
                raise _Stop
            else:
                try:
                    chosen[seat] = match._parse_among(text, legal)
                except ShibumiError as exc:
                    write(f"Not chosen: {exc}")
    moves = [chosen[s] for s in range(game.num_players)]
    match.push_joint(moves)
    write("Choices revealed: " + ", ".join(
        f"{game.player_name(s)} {m.text()}" for s, m in enumerate(moves)))


def _hand_over(match: Match, humans: list[int], seat: int, read, write) -> None:
    """Between two humans at one screen, hide the board until the next one is ready."""
    if len(humans) > 1 and match.game.info.hidden_information | match.game.info.simultaneous:
        write("\n" * 30 + f"Pass the device to {match.game.player_name(seat)}, "
              "then press Enter.")
        _ask(read, "")


def _command(match: Match, humans: list[int], text: str, write) -> bool:
    """Run a command; False when the text should be read as a move."""
    if text in ("quit", "q", "exit"):
        raise _Stop
    if text in ("help", "?"):
        write(HELP.format(example=_example(match)))
    elif text == "moves":
        write(" ".join(sorted(match.move_text(m) for m in match.legal_moves())))
    elif text == "save":
        write(_resume_line(match))
    elif text == "undo":
        _undo(match, humans, write)
    else:
        return False
    return True


def _ask(read, prompt: str) -> str:
    text = read(prompt)
    return text.strip() if isinstance(text, str) else ""


def _example(match: Match) -> str:
    """A legal move to show as an example (the first in sorted order)."""
    if match.current_player >= 0:
        legal = match.legal_moves()
        if legal:
            return sorted(match.move_text(m) for m in legal)[0]
    return "d6"


def _resume_line(match: Match) -> str:
    record = match.record()
    if not record:
        return "Nothing played yet; nothing to save."
    name = match.game.info.name.lower()
    return f"Game saved. To resume: shibumi play {shlex.quote(name)} " \
           f"--resume {shlex.quote(record)}"


def _undo(match: Match, humans: list[int], write) -> None:
    """Take back moves until it is a human's turn again, before their last move."""
    try:
        match.pop()
    except ShibumiError:
        write("Nothing to undo.")
        return
    while match.history and match.current_player not in humans:
        try:
            match.pop()
        except ShibumiError:
            break
