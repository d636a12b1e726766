"""How people play: one interaction model for every front end.

A :class:`Table` holds a game in progress and everything about playing it
that is not drawing: who sits where (a human or the AI, and how strong),
what a click on a point means in a multi-part turn (the moves it leaves
open, the selected ball, the other ends), secret simultaneous choices, who
may see what (a cover between two humans in a game with hidden parts),
undo, new game, the messages and the end of the game.  Front ends draw
:meth:`Table.view` and forward what the player did: the terminal
(:mod:`shibumi.play`), the notebook widget
(:class:`shibumi.views.play.PlayWidget`) and the board in the book's pages,
where this module runs in the reader's browser under Pyodide.

Every action takes the ``version`` of the view it was made on, when the
front end knows it: an action made on a position that has changed since is
refused, so a click can never be applied to a position the player did not
see.  The AI never moves inside an action: a front end sees ``ai_due`` and
calls :meth:`Table.ai_step` (the browser in a worker, with input locked
meanwhile; the terminal and the widget at once, with :meth:`Table.run_ai`).

>>> t = Table("spline", seats=["human", "ai"], ai="mcts:50", seed=1)
>>> t.click("c3")                      # White plays c3 ...
Move('Wc3.0')
>>> t.ai_due, t.view()["ai_player"]    # ... and it is the AI's turn
(True, 'Black')
>>> t.click("a1")                      # input waits for the AI
>>> t.message
'Wait: Black (AI) is to move.'
>>> played = t.run_ai(); t.ai_due
False
>>> t.click("c5", version=0)           # a click made on an earlier view
>>> t.message
'That click was made on an earlier position: nothing was played. Look again and choose.'
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter

from .errors import NotationError, ShibumiError, is_number, shown
from .game import CHANCE, SIMULTANEOUS, Game, Match
from .notation import ENTER, PLACE, point_in
from .maths.perfect import is_solved, move_values
from .players import MAX_ITERATIONS, MCTSPlayer, PerfectPlayer, RandomPlayer
from .registry import load

__all__ = ["Table", "STRENGTHS", "move_labels", "HUMAN", "AI"]

HUMAN, AI = "human", "ai"
_SEAT_WORDS = {HUMAN: "Human", AI: "AI"}

#: The AI's strength levels, weakest first: (name, label, iterations or None for
#: random moves, seconds at most a move).
STRENGTHS = (
    ("beginner", "Beginner (random moves)", None, 0.0),
    ("easy", "Easy", 100, 1.0),
    ("medium", "Medium", 3000, 1.0),
    ("strong", "Strong", 30000, 3.0),
    ("strongest", "Strongest", MAX_ITERATIONS, 10.0),
)
DEFAULT_STRENGTH = "medium"
_STALE = "That click was made on an earlier position: nothing was played. Look again and choose."


def move_labels(moves) -> dict:
    """The shortest text naming each move among these (as
    :func:`shibumi.notation.short_text`), in one pass: a shape names a move when
    it is one of the move's four spellings (with or without colour, with or
    without levels) and no other move of the list is spelled that way.

    >>> from shibumi.notation import Move
    >>> sorted(move_labels([Move('Wc3.0'), Move('Bc3.0'), Move('Wa1')]).values())
    ['Bc3', 'Wc3', 'a1']
    """
    spellings = {}
    for move in moves:
        full = move.text()
        bare = full[1:] if move.colour is not None and move.kind in (PLACE, ENTER) else full
        spellings[move] = (_drop_levels(bare), bare, _drop_levels(full), full)
    counts = Counter(s for shapes in spellings.values() for s in set(shapes))
    return {move: next((s for s in shapes if counts[s] == 1), move.text())
            for move, shapes in spellings.items()}


def _drop_levels(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] == "." and i + 1 < len(text) and text[i + 1] in "0123":
            i += 2
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def _as_game(game_or_name) -> Game:
    if isinstance(game_or_name, Game):
        return game_or_name
    if isinstance(game_or_name, type) and issubclass(game_or_name, Game):
        return game_or_name()
    if isinstance(game_or_name, str):
        return load(game_or_name)
    raise TypeError(f"a table takes a game, a game class or a game name like "
                    f"'spline', not {type(game_or_name).__name__}")


def parse_seats(seats, n: int) -> list[str]:
    """One of 'human' or 'ai' per player (default: the first human, the others AI)."""
    if seats is None:
        return [HUMAN] + [AI] * (n - 1)
    if isinstance(seats, str):
        seats = seats.split(",") if "," in seats else [seats] * n
    seats = list(seats)
    if len(seats) != n:
        raise ValueError(f"seats: give one of 'human' or 'ai' for each of the "
                         f"{n} players, got {len(seats)}")
    out = []
    for s in seats:
        kind = str(s).strip().lower()
        if kind not in (HUMAN, AI):
            raise ValueError(f"a seat is 'human' or 'ai', not {shown(s)}")
        out.append(kind)
    return out


def parse_ai(ai) -> tuple[str, int | None, float | None]:
    """(kind, iterations, seconds) from a strength name, 'mcts', 'mcts:N' or 'random'."""
    names = [s[0] for s in STRENGTHS]
    if isinstance(ai, str):
        word = ai.strip().lower()
        for name, _, iterations, seconds in STRENGTHS:
            if word == name:
                return ("random", None, None) if iterations is None else \
                    ("mcts", iterations, seconds)
        kind, sep, arg = word.partition(":")
        if not sep:
            kind, sep, arg = word.partition("@")
        if kind == "random" and not sep:
            return "random", None, None
        if kind == "perfect" and not sep:
            return "perfect", None, None
        if kind == "mcts" and not sep:
            return "mcts", None, None
        if kind == "mcts" and sep == ":" and is_number(arg) and 1 <= int(arg) <= MAX_ITERATIONS:
            return "mcts", int(arg), None
        if kind == "mcts" and sep == "@":
            try:
                seconds = float(arg)
            except ValueError:
                seconds = 0.0
            if 0 < seconds <= 600:
                return "mcts", None, seconds
    raise ValueError(f"the AI is a strength ({', '.join(names)}), 'mcts', "
                     f"'mcts:ITERATIONS' (1-{MAX_ITERATIONS:,}), 'mcts@SECONDS' (up to 600), "
                     "'perfect' (solved games) or 'random', "
                     f"not {shown(ai)}")


#: A row of a text diagram (another set's picture in describe): the board draws sets.
_DIAGRAM_ROW = re.compile(r"^[0-9]{1,2}(\s|$)")
#: The files line under a diagram (a b c ...).
_FILES_ROW = re.compile(r"^a\s+b(\s|$)")
#: describe's "White to move." line: the view says whose turn it is in its own words.
_TURN = re.compile(r"^[\w' ]{1,40} to move\b")


_HIDDEN_DRAW = "a hidden draw"


def _draws(texts: list[str]) -> list[str]:
    """Chance draws for the history: a deal of many hidden draws in a few words."""
    hidden = texts.count(_HIDDEN_DRAW)
    if hidden > 1:
        return [f"{hidden} hidden draws"] + [t for t in texts if t != _HIDDEN_DRAW]
    if len(texts) > 4:
        return ["drawn " + " ".join(t.split(" ", 1)[1] for t in texts)]
    return texts


def _number(x: float) -> str:
    return f"{x:g}"


class Table:
    """A game being played: seats, clicks, secret choices, cover, undo, messages.

    ``seats``: 'human' or 'ai' for each player in turn order, one word for
    all, or a comma list.  ``ai``: a strength from :data:`STRENGTHS`
    (``'medium'``), ``'mcts'`` (``budget`` seconds a move), ``'mcts:N'`` (at
    most N iterations and ``budget`` seconds: reproducible with a seed) or
    ``'random'``.  ``record`` resumes a game (:meth:`shibumi.Match.record`).
    """

    def __init__(self, game_or_name, seats=None, ai: str = DEFAULT_STRENGTH,
                 seed: int | None = None, budget: float = 1.0,
                 record: str | None = None) -> None:
        self.game = _as_game(game_or_name)
        self.seats = parse_seats(seats, self.game.num_players)
        self.version = 0
        self.set_ai(ai, budget)
        self._rng = random.Random(seed)
        self._seeded = seed is not None
        self.match = self.game.new_match(seed=seed, record=record)
        self.message, self.error = "", False
        self._selected: int | None = None        # first point of a two-click move
        self._narrowed: list | None = None       # the moves the last click left open
        self._secret: dict = {}                  # simultaneous choices made so far
        self._shown_to: int | None = None        # the human who last lifted the cover
        self._cache = None                       # (state, player, moves, labels)
        self._history: list = []                 # (move, before, text), as match.history
        self._history_for = (None, False)        # (viewer, over) the texts were made for
        self.show_values = False                 # show solved games' move values
        self.last_ai = ""                        # the sentence saying the last AI move
        self._lead = ""                          # the sentence saying the last human move

    def __repr__(self) -> str:
        return f"<Table {self.game!r} seats=[{', '.join(self.seats)}] {self.match!r}>"

    # -- settings ----------------------------------------------------------------
    def set_ai(self, ai: str, budget: float | None = None) -> None:
        """Change the AI's strength (a name of :data:`STRENGTHS` or a spec)."""
        kind, iterations, seconds = parse_ai(ai)
        if kind == "perfect":
            PerfectPlayer.check(self.game)       # a clear error in a game not solved here
        if budget is not None:
            if isinstance(budget, bool) or not isinstance(budget, (int, float)) \
                    or not 0 < budget <= 600:
                raise ValueError(f"budget is a number of seconds above 0 and at most 600, "
                                 f"not {shown(budget)}")
        self.ai_kind, self.iterations = kind, iterations
        self.budget = float(seconds if seconds is not None else budget or 1.0)
        self.strength = ai.strip().lower() if isinstance(ai, str) else str(ai)
        self._players = {}                       # new players for the new setting
        self._touch()

    def set_seat(self, player: int, kind: str) -> None:
        """Seat a human or the AI at ``player`` (0-based)."""
        kind = parse_seats([kind], 1)[0]
        if isinstance(player, bool) or not isinstance(player, int) \
                or not 0 <= player < self.game.num_players:
            raise ValueError(f"player is 0-{self.game.num_players - 1}, not {shown(player)}")
        self.seats[player] = kind
        if kind == AI:
            self._secret.pop(player, None)       # the AI chooses for itself
        self._clear_selection()
        self._touch()

    # -- who is asked ------------------------------------------------------------
    @property
    def mover(self) -> int | None:
        """The player whose input is awaited: the player to move or, at a
        simultaneous node, the first human (else the first seat) yet to choose."""
        cp = self.match.current_player
        if cp >= 0:
            return cp
        if cp == SIMULTANEOUS:
            waiting = [p for p in range(self.game.num_players) if p not in self._secret]
            humans = [p for p in waiting if self.seats[p] == HUMAN]
            return (humans or waiting or [None])[0]
        return None

    @property
    def ai_due(self) -> bool:
        """Must an AI seat move now (a human seated elsewhere waits for it)?"""
        if HUMAN not in self.seats or self.match.is_over():
            return False
        cp = self.match.current_player
        if cp == SIMULTANEOUS:
            return all(p in self._secret for p in range(self.game.num_players)
                       if self.seats[p] == HUMAN)
        return cp >= 0 and self.seats[cp] == AI

    @property
    def viewer(self) -> int | None:
        """Whose eyes the board is shown through (None: everything)."""
        if self.match.is_over():
            return None
        humans = [p for p, s in enumerate(self.seats) if s == HUMAN]
        cp = self.match.current_player
        if cp >= 0 and self.seats[cp] == HUMAN:
            return cp
        if cp == SIMULTANEOUS:
            waiting = [p for p in humans if p not in self._secret]
            if waiting:
                return waiting[0]
        return humans[0] if len(humans) == 1 else None

    @property
    def covered(self) -> bool:
        """Is the board hidden until the next human shows it (pass the device)?"""
        info = self.game.info
        humans = sum(s == HUMAN for s in self.seats)
        private = info.hidden_information and not info.hidden_from_all
        if humans < 2 or not (private or info.simultaneous):
            return False
        viewer = self.viewer
        return viewer is not None and viewer != self._shown_to

    def options(self, player: int | None = None) -> list:
        """The moves offered now (narrowed by a click, if it did)."""
        if self._narrowed is not None and player is None:
            return list(self._narrowed)
        return list(self.moves_now(player)[0])

    def moves_now(self, player: int | None = None):
        """(legal moves sorted by label, labels) for the player whose input is awaited."""
        state = self.match.state
        if player is None:
            player = self.mover
        if player is None or self.match.is_over():
            return [], {}
        if self._cache is not None and self._cache[0] is state and self._cache[1] == player:
            return self._cache[2], self._cache[3]
        if self.match.current_player == SIMULTANEOUS:
            moves = list(self.game.legal_moves(state, player))
        else:
            moves = list(self.match.legal_moves())
        labels = move_labels(moves)
        moves.sort(key=lambda m: (labels[m], m.text()))
        self._cache = (state, player, moves, labels)
        return moves, labels

    # -- actions -----------------------------------------------------------------
    def click(self, point, version: int | None = None):
        """A click on a point (0-29 or a name like 'd4.1').

        Returns the move played or chosen, or None (then :attr:`message` says
        why, or asks to pick among the moves left open).
        """
        if not self._may_act(version):
            return None
        moves, labels = self.moves_now()
        p = self._point_from(point, moves)
        if p is None:
            return None
        name = self._name(p)
        options = self._narrowed if self._narrowed is not None else moves
        first = self._selected
        if first is not None:
            if p == first:
                singles = [m for m in options if m.point == p and m.target is None]
                if len(singles) == 1:
                    return self._play(singles[0])
                if singles:
                    return self._say(f"Several moves use {name}: pick one in the list "
                                     f"({self._list(singles, labels)}).")
                self._clear_selection()
                return self._say("Selection cleared. Click a ball or a marked point.")
            pair = [m for m in moves if m.target is not None and {m.point, m.target} == {first, p}]
            if len(pair) == 1:
                return self._play(pair[0])
            self._clear_selection()
        uses = [m for m in moves if p in (m.point, m.target)]
        if not uses:
            text = self._illegal_click(p, moves, labels)
            if first is not None:
                text = (f"No legal move joins {self._name(first)} and {name}, and "
                        + text[0].lower() + text[1:])
            return self._say(text, error=True)
        if len(uses) == 1:
            return self._play(uses[0])
        self._selected, self._narrowed = p, uses
        return self._say(self._narrow_message(p, uses, labels))

    def choose(self, move, player: int | None = None, version: int | None = None):
        """Play a move: a :class:`~shibumi.notation.Move`, its text as listed ('d6',
        '=R', 'b2>d4', 'pass'), any notation the game reads, or the index of an
        option of :meth:`view`.

        At a simultaneous node it records ``player``'s secret choice (default:
        the first human yet to choose).  Returns the move, or None with a message.
        """
        if not self._may_act(version, ai_may_wait=player is not None):
            return None
        cp = self.match.current_player
        try:
            if cp == SIMULTANEOUS:
                who = self.mover if player is None else player
                if who is None or not 0 <= who < self.game.num_players:
                    return self._say(f"Say which player chooses (0-{self.game.num_players - 1}).",
                                     error=True)
                if who in self._secret:
                    return self._say(f"{self.game.player_name(who)} has already chosen.",
                                     error=True)
                legal = self.game.legal_moves(self.match.state, who)
                chosen = self._resolve(move, legal, who)
                self._clear_selection()
                return self._lock(who, chosen)
            if player is not None and player != cp:
                return self._say(f"It is {self.game.player_name(cp)}'s turn, not "
                                 f"{self.game.player_name(player)}'s.", error=True)
            chosen = self._resolve(move, self.moves_now()[0], cp)
        except ShibumiError as exc:
            return self._say(f"Not played: {exc}", error=True)
        return self._play(chosen)

    def show_all(self) -> None:
        """Undo a narrowing made by a click: every move is offered again."""
        self._clear_selection()
        self._say("")

    def reveal(self) -> None:
        """The next human is alone at the screen: lift the cover."""
        self._shown_to = self.viewer
        self._say(self.turn_line())

    def undo(self) -> bool:
        """Take back the last move, and the AI's moves after a human's: back to a human's turn."""
        if self._secret:
            self._secret.clear()
            self._clear_selection()
            self._say("Secret choices cleared: choose again.")
            return True
        if not self._can_undo():
            self._say("Nothing to undo.", error=True)
            return False
        self.match.pop()
        if HUMAN in self.seats:
            while self._can_undo() and not self._humans_turn():
                self.match.pop()
        self._clear_selection()
        self._shown_to = None
        self._say(f"Move taken back. {self.turn_line()}")
        return True

    def new_game(self) -> None:
        """Start again from the game's initial state."""
        seed = self._rng.getrandbits(32) if self._seeded else None
        self.match = self.game.new_match(seed=seed)
        self._secret.clear()
        self._players = {}
        self._clear_selection()
        self._shown_to = None
        self._say(f"New game. {self.turn_line()}")

    def ai_step(self, version: int | None = None):
        """Let the AI play one move for the player to move (every AI seat's
        secret choice at a simultaneous node).  Returns what was played, or None."""
        if version is not None and version != self.version:
            return self._say(_STALE, error=True)
        if self.match.is_over():
            return self._say(f"The game is over. {self._over_hint()}", error=True)
        self._clear_selection()
        cp = self.match.current_player
        if cp == SIMULTANEOUS:
            return self._resolve_joint()
        if cp < 0:
            return None
        name = self.game.player_name(cp)
        start = time.perf_counter()
        _, labels = self.moves_now()
        move = self._ai_choose(cp)
        secret = self.game.secret_move(self.match.state, move)
        self.match.push(move)
        said = secret if secret is not None else f"played {labels.get(move, move.text())}"
        self.last_ai = f"{name} (AI) {said} ({time.perf_counter() - start:.1f} s)."
        self._say(f"{self.last_ai} {self.turn_line()}")
        return move

    def run_ai(self) -> list:
        """Let AI seats move until a human is to move (or the end); returns the
        moves played.  The message keeps what the human played, then says every
        AI move, so that nothing played goes unsaid."""
        played, said = [], [self._lead] if self._lead else []
        while self.ai_due:
            move = self.ai_step()
            if move is None:
                break
            played.append(move)
            said.append(self.last_ai)
        if played:
            self._say(" ".join(said + [self.turn_line()]))
        return played

    def play_out(self, max_moves: int = 10_000) -> int:
        """Let the AI play every seat to the end (or ``max_moves``); returns moves played."""
        count = 0
        while not self.match.is_over() and count < max_moves:
            if self.ai_step() is None:
                break
            count += 1
        if self.match.is_over():
            self._say(f"Played to the end. {self.outcome_text()}")
        return count

    # -- the view ------------------------------------------------------------------
    def view(self) -> dict:
        """Everything a front end draws, as plain data (JSON-ready).

        Points are numbers 0-29 (:mod:`shibumi.geometry`); texts are what players read.
        """
        g, match = self.game, self.match
        over = match.is_over()
        covered = self.covered
        moves, labels = self.moves_now()
        listed = [] if over or covered else (self._narrowed if self._narrowed is not None
                                            else moves)
        waiting_ai = self.ai_due
        shown = self.shown_state()
        position = g.board_of(shown, self.board_seat())
        pieces = g.board.pieces
        balls = [] if covered else pieces(position)
        boards = [] if covered else [{"label": label, "balls": pieces(other)} for label, other
                                     in g.other_boards(shown, self.board_seat())]
        active = not (over or covered or waiting_ai)
        playable, clickable, hints = set(), set(), {}
        if active:
            for m in listed:
                for q in (m.point, m.target):
                    if q is not None:
                        clickable.add(q)
                        if not position.occupied >> q & 1:
                            playable.add(q)
            hints = {str(q): self._hint(q, moves, labels) for q in sorted(clickable)}
        targets = []
        if self._selected is not None:
            targets = sorted({q for m in listed for q in (m.point, m.target)
                              if q is not None and q != self._selected})
        arrows = [] if covered else self._arrows(listed if active else [])
        cp = match.current_player
        return {
            "version": self.version,
            "game": {"name": g.info.name, "summary": g.info.summary,
                     "players": [g.player_name(p) for p in range(g.num_players)],
                     "solitaire": g.num_players == 1},
            "seats": list(self.seats),
            "strength": self.strength,
            "strengths": [[s[0], s[1]] for s in STRENGTHS],
            "balls": balls,
            "boards": boards,
            "playable": sorted(playable), "clickable": sorted(clickable), "hints": hints,
            "selected": self._selected if active else None, "targets": targets if active else [],
            "last": [] if covered else self.last_points(),
            "arrows": arrows,
            "winning": self.winning_points() if over else [],
            "options": [{"index": i, "label": labels.get(m, m.text())}
                        for i, m in enumerate(listed)] if active else [],
            "narrowed": self._narrowed is not None,
            "options_title": self._options_title(listed) if active else "",
            "simultaneous": cp == SIMULTANEOUS and not over,
            "chosen": sorted(self._secret),
            "turn": self.turn_line(),
            "status": [] if covered else self.status_lines(shown),
            "message": self.message, "error": self.error,
            "history": [] if covered else self.history(),
            "over": over, "result": self.outcome_text() if over else None,
            "cover": self._cover_text() if covered else None,
            "ai_due": waiting_ai,
            "ai_player": g.player_name(cp) if waiting_ai and cp >= 0 else
            ("the AI" if waiting_ai else None),
            "can_undo": self._can_undo() or bool(self._secret),
            "solved": self.solved,
            "values": self._values(listed) if active and self.show_values else None,
            "record": match.record(),
            # A record replays the chance draws, hands included: not to be shown
            # to a seat before the end of a game with hidden parts.
            "record_secret": not over and g.info.hidden_information and (
                g.info.chance or self._any_secret_move()),
        }

    @property
    def solved(self) -> bool:
        """Can the board show this game's exact move values?"""
        return is_solved(self.game)

    def set_values(self, show: bool) -> None:
        """Show (or hide) the exact value of every move, in solved games."""
        if show and not self.solved:
            raise ShibumiError(f"{self.game.info.name} is not solved here: no move values")
        self.show_values = bool(show)
        self._touch()

    def _values(self, listed) -> dict | None:
        """{option index: value text} for the options listed, in solved games."""
        if not self.solved:
            return None
        found = move_values(self.game, self.match.state, listed)
        return {str(i): found[m][1] for i, m in enumerate(listed) if m in found}

    def shown_state(self):
        """The state as the viewer may see it."""
        viewer = self.viewer
        state = self.match.state
        return state if viewer is None else self.game.observe(state, viewer)

    def board_seat(self) -> int | None:
        seat = self.viewer
        if seat is None and self.match.current_player >= 0:
            seat = self.match.current_player
        return seat

    def turn_line(self) -> str:
        """Whose turn it is, in one sentence (or the result)."""
        if self.match.is_over():
            return self.outcome_text()
        cp = self.match.current_player
        g = self.game
        if cp == SIMULTANEOUS:
            waiting = [g.player_name(p) for p in range(g.num_players) if p not in self._secret]
            return f"Secret choice: waiting for {', '.join(waiting)}."
        if cp >= 0:
            if g.num_players == 1:
                return "Your move." if self.seats[0] == HUMAN else "The AI's move."
            one_human = self.seats.count(HUMAN) == 1
            seat = "you" if one_human and self.seats[cp] == HUMAN else _SEAT_WORDS[self.seats[cp]]
            return f"{g.player_name(cp)} ({seat}) to move."
        return ""

    def status_lines(self, shown=None) -> list[str]:
        """Scores, stocks and hands: the game's :meth:`~shibumi.Game.status_lines`,
        then what ``game.describe`` says in words beyond the board."""
        shown = self.shown_state() if shown is None else shown
        try:
            text = self.game.describe(shown)
            extra = list(self.game.status_lines(shown))
        except Exception:   # noqa: BLE001 - a masked state a game cannot describe
            return []
        diagram = shown.position.diagram()
        if text.startswith(diagram):
            text = text[len(diagram):]
        keep = []
        for line in text.splitlines():
            line = line.strip()
            if not line or line.startswith(("Last move:", "Game over", "State:", "a b c")) \
                    or line.endswith(":") or _DIAGRAM_ROW.match(line) or _TURN.match(line) \
                    or _FILES_ROW.match(line):
                continue
            keep.append(line if len(line) <= 160 else line[:159] + "…")
        return extra + keep

    def history(self) -> list[dict]:
        """The moves so far, oldest first, one numbered entry per turn (chance draws
        shown with the turn they open, hidden while the game hides them)."""
        hist = self.match.history
        if self._history_for != (self.viewer, self.match.is_over()):
            self._history.clear()            # secret moves read differently now
            self._history_for = (self.viewer, self.match.is_over())
        cached = self._history
        same = 0
        while (same < min(len(cached), len(hist)) and cached[same][0] is hist[same][0]
               and cached[same][1] is hist[same][1]):
            same += 1
        del cached[same:]
        hide_chance = self.game.info.hidden_information and not self.match.is_over()
        for move, before in hist[same:]:
            mover = self.game.current_player(before)
            if mover == CHANCE:
                text = _HIDDEN_DRAW if hide_chance else f"drawn {move.text().lstrip('=')}"
            elif isinstance(move, tuple):
                text = ", ".join(f"{self.game.player_name(p)} {self._move_words(before, m, p)}"
                                 for p, m in enumerate(move))
            else:
                text = f"{self.game.player_name(mover)} {self._move_words(before, move, mover)}"
            cached.append((move, before, text))
        out, pending = [], []
        for _, before, text in cached:
            if self.game.current_player(before) == CHANCE:
                pending.append(text)
                continue
            out.append({"number": len(out) + 1, "text": "; ".join(_draws(pending) + [text])})
            pending = []
        if pending:
            out.append({"number": len(out) + 1, "text": "; ".join(_draws(pending))})
        return out

    def _any_secret_move(self) -> bool:
        """Has a player made a move the game keeps secret (it is in the record)?"""
        g = self.game
        for move, before in self.match.history:
            moves = move if isinstance(move, tuple) else (move,)
            if g.current_player(before) != CHANCE and any(
                    g.secret_move(before, m) is not None for m in moves):
                return True
        return False

    def _move_words(self, before, move, player: int) -> str:
        """A move as the viewer may read it: its label, or the words the game gives
        for a secret move (to everyone but the mover, until the game ends)."""
        if not self.match.is_over() and self.viewer != player:
            secret = self.game.secret_move(before, move)
            if secret is not None:
                return secret
        legal = self.game.legal_moves(before, player if isinstance(player, int) else None)
        return move_labels(legal).get(move, move.text())

    def last_points(self) -> list[int]:
        """The points of the last move made by a player (none for a secret one)."""
        for move, before in reversed(self.match.history):
            if isinstance(move, tuple):
                return []
            if self.game.current_player(before) == CHANCE:
                continue
            if not self.match.is_over() and self.game.secret_move(before, move) is not None:
                return []
            return [q for q in (move.point, move.target) if q is not None]
        return []

    def winning_points(self) -> list[int]:
        """The winning line or group, when the game can tell."""
        mask = self.game.winning_points(self.match.state)
        return [p for p in range(self.game.board.num_points) if mask >> p & 1]

    def outcome_text(self) -> str:
        outcome = self.match.outcome()
        if outcome is None:
            return ""
        g = self.game
        if g.num_players == 1:
            text = "Not solved." if outcome.is_draw else "Solved!"
        elif g.info.cooperative:
            text = "Lost together." if outcome.is_draw else "Won together!"
        elif outcome.is_draw:
            text = "Draw."
        else:
            text = " and ".join(g.player_name(p) for p in outcome.winners) + " won."
        if outcome.reason:
            text += f" {outcome.reason[:1].upper()}{outcome.reason[1:]}."
        if outcome.scores is not None:
            text += " Scores: " + ", ".join(f"{g.player_name(p)} {_number(s)}"
                                            for p, s in enumerate(outcome.scores)) + "."
        if outcome.ranking is not None and g.num_players > 2:
            text += " Ranking: " + "; ".join(
                f"{i + 1}. " + ", ".join(g.player_name(p) for p in group)
                for i, group in enumerate(outcome.ranking)) + "."
        return text

    # -- inside ----------------------------------------------------------------------
    def _touch(self) -> None:
        self.version += 1

    def _say(self, text: str, error: bool = False):
        """Set the message (and a new version); returns None so actions can return it."""
        if not error:
            self._lead = ""          # what the human just played, set by _play after this
        self.message, self.error = text, error
        self._touch()
        return None

    def _may_act(self, version: int | None, ai_may_wait: bool = False) -> bool:
        """May a player's action be taken now?  Says why not."""
        if version is not None and version != self.version:
            self._say(_STALE, error=True)
            return False
        if self.match.is_over():
            self._say(f"The game is over. {self._over_hint()}", error=True)
            return False
        if self.covered:
            self._say(f"{self._cover_text()}", error=True)
            return False
        cp = self.match.current_player
        if self.ai_due and not (ai_may_wait and cp == SIMULTANEOUS):
            who = self.game.player_name(cp) if cp >= 0 else "the AI"
            self._say(f"Wait: {who} (AI) is to move.", error=True)
            return False
        return True

    def _cover_text(self) -> str:
        name = self.game.player_name(self.viewer)
        return (f"Pass the device to {name}. {name}: show the board when no one else "
                "can see the screen.")

    def _resolve(self, move, legal, player):
        if isinstance(move, int) and not isinstance(move, bool):
            listed = self._narrowed if self._narrowed is not None else self.moves_now()[0]
            if 0 <= move < len(listed):
                return listed[move]
            raise ShibumiError(f"there is no option {move}: options are 0-{len(listed) - 1}")
        if not isinstance(move, str):
            if move in legal:
                return move
            raise ShibumiError(f"{move!r} is not a legal move here")
        try:
            found = self.game.board.moves_matching(move, legal)
        except NotationError:
            found = []                  # not a move at all: list the legal ones below
        if len(found) == 1:
            return found[0]
        labels = move_labels(legal)
        if not found:
            try:
                return self.match._parse_among(move, legal)
            except ShibumiError:
                pass
            names = sorted(labels.values())
            listed = " ".join(names[:40]) + (f" and {len(names) - 40} more"
                                             if len(names) > 40 else "")
            raise ShibumiError(f"{shown(move)} is not a legal move here; legal: {listed or 'none'}")
        raise ShibumiError(f"{shown(move)} is ambiguous: it may mean "
                           f"{' or '.join(labels[m] for m in found)}")

    def _play(self, move):
        """Play a legal move of the awaited player."""
        who = self.mover
        _, labels = self.moves_now()
        text = labels.get(move, move.text())
        self._clear_selection()
        if self.match.current_player == SIMULTANEOUS:
            return self._lock(who, move)
        secret = self.game.secret_move(self.match.state, move)
        self.match.push(move)
        lead = f"{self.game.player_name(who)} played {text}."
        if secret is not None and sum(s == HUMAN for s in self.seats) > 1:
            lead = f"{self.game.player_name(who)} {secret}."   # the next human reads this
        self._say(f"{lead} {self.turn_line()}")
        self._lead = lead
        return move

    def _lock(self, player: int, move):
        self._secret[player] = move
        self._say(f"{self.game.player_name(player)}'s choice is locked in (kept secret).")
        if len(self._secret) == self.game.num_players:
            self._resolve_joint()        # everyone has chosen: no AI to wait for
        return move

    def _resolve_joint(self) -> tuple:
        state = self.match.state
        choices = [self._secret[p] if p in self._secret else self._ai_choose(p)
                   for p in range(self.game.num_players)]
        self._secret.clear()
        texts = [self.game.secret_move(state, m)
                 or move_labels(self.game.legal_moves(state, p)).get(m, m.text())
                 for p, m in enumerate(choices)]
        self.match.push_joint(choices)
        said = ", ".join(f"{self.game.player_name(p)} {t}" for p, t in enumerate(texts))
        self.last_ai = f"Choices revealed: {said}."
        self._shown_to = None
        self._say(f"{self.last_ai} {self.turn_line()}")
        return tuple(choices)

    def _player(self):
        """A new AI player for the current setting.  At the strongest setting a
        solved game is played perfectly."""
        seed = self._rng.getrandbits(32) if self._seeded else None
        if self.ai_kind == "perfect" or (self.strength == STRENGTHS[-1][0]
                                         and is_solved(self.game)):
            return PerfectPlayer(seed)
        if self.ai_kind == "random":
            return RandomPlayer(seed)
        return MCTSPlayer(iterations=self.iterations or MAX_ITERATIONS, seconds=self.budget,
                          seed=seed)

    def _ai_choose(self, player: int):
        """The AI's move for ``player``: it looks only at what that seat may see.

        Each AI seat keeps its player for the game, so a search keeps its tree
        from one move to the next (it starts afresh where the tree does not
        hold the position, e.g. after an undo)."""
        if player not in self._players:
            self._players[player] = self._player()
        return self._players[player].choose(self.game, self.match.state, player)

    def _can_undo(self) -> bool:
        return any(self.game.current_player(before) != CHANCE
                   for _, before in self.match.history)

    def _humans_turn(self) -> bool:
        cp = self.match.current_player
        if cp == SIMULTANEOUS:
            return HUMAN in self.seats
        return cp >= 0 and self.seats[cp] == HUMAN

    def _clear_selection(self) -> None:
        self._selected = None
        self._narrowed = None

    def _over_hint(self) -> str:
        return f"{self.outcome_text()} Press New game, or Undo."

    def _point_from(self, point, moves) -> int | None:
        board = self.game.board
        most = board.num_points - 1
        if isinstance(point, bool) or not isinstance(point, (int, str)):
            raise TypeError(f"a point is a number 0-{most} or a name like "
                            f"{board.point_name(most)!r}, not {type(point).__name__}")
        if isinstance(point, int):
            if not 0 <= point <= most:
                self._say(f"There is no point {point}: points are 0-{most}.", error=True)
                return None
            return point
        try:
            cands = board.point_candidates(point)
        except NotationError as exc:
            self._say(f"Not played: {exc}", error=True)
            return None
        if len(cands) == 1:
            return cands[0]
        used = [p for p in cands if any(p in (m.point, m.target) for m in moves)]
        if len(used) == 1:
            return used[0]
        return point_in(point, self.game.board_of(self.shown_state(), self.board_seat()).occupied)

    def _name(self, p: int) -> str:
        """A point's name as players read it now (the board type decides)."""
        return self.game.board.click_name(p, self.match.state.position)

    def _list(self, moves, labels, most: int = 8) -> str:
        names = [labels.get(m, m.text()) for m in moves]
        more = f" and {len(names) - most} more" if len(names) > most else ""
        return ", ".join(names[:most]) + more

    def _illegal_click(self, p: int, moves, labels) -> str:
        name = self._name(p)
        position = self.match.state.position
        if not moves:
            return f"No move can be made now. {self.turn_line()}"
        where = (f"the {self.game.board.piece_word} on {name}" if position.occupied >> p & 1 else
                 f"{name}, which is not playable now" if not position.is_playable(p)
                 else name)
        pointless = [m for m in moves if m.point is None]
        if len(pointless) == len(moves):
            return (f"No legal move uses {where}: choose from the list "
                    f"({self._list(moves, labels)}). Position unchanged.")
        return (f"No legal move uses {where}; position unchanged. "
                f"Legal: {self._list(moves, labels)}.")

    def _narrow_message(self, p: int, uses, labels) -> str:
        name = self._name(p)
        singles = [m for m in uses if m.target is None]
        starts = [m for m in uses if m.target is not None and m.point == p]
        ends = [m for m in uses if m.target is not None and m.target == p]
        if starts and not singles and not ends:
            return (f"Moving the {self.game.board.piece_word} on {name}: click where it goes, or pick "
                    f"in the list ({self._list(starts, labels)}).")
        hints = []
        if len(singles) == 1:
            hints.append(f"click {name} again for {labels[singles[0]]}")
        if starts or ends:
            hints.append("click the other end of the move")
        hint = ("; ".join(hints) + ", or ") if hints else ""
        return (f"{len(uses)} moves use {name}: {hint}pick one in the list "
                f"({self._list(uses, labels)}).")

    def _hint(self, q: int, moves, labels) -> str:
        """What a click on q would do now, for a hover."""
        name = self._name(q)
        if self._selected is not None and q != self._selected:
            pair = [m for m in moves if m.target is not None
                    and {m.point, m.target} == {self._selected, q}]
            if len(pair) == 1:
                return f"Play {labels[pair[0]]}"
        uses = [m for m in moves if q in (m.point, m.target)]
        if len(uses) == 1:
            return f"Play {labels[uses[0]]}"
        if self._selected == q:
            singles = [m for m in uses if m.target is None]
            return f"Play {labels[singles[0]]}" if len(singles) == 1 else "Clear the selection"
        return f"{name}: {len(uses)} moves ({self._list(uses, labels, 4)})"

    def _options_title(self, listed) -> str:
        who = self.mover
        name = self.game.player_name(who) if who is not None else ""
        what = "moves using the point clicked" if self._narrowed is not None else "legal moves"
        secret = " (secret choice)" if self.match.current_player == SIMULTANEOUS else ""
        return f"{name}{secret}: {len(listed)} {what}"

    def _arrows(self, offered) -> list[dict]:
        """Arrows for entries and slides: the last move's, and entries offered now."""
        arrows = []
        for move, before in reversed(self.match.history):
            if isinstance(move, tuple) or self.game.current_player(before) == CHANCE:
                continue
            arrows.extend(self._arrow(move, "last"))
            break
        for m in offered:
            if m.kind == ENTER:
                arrows.extend(self._arrow(m, "option"))
        return arrows

    @staticmethod
    def _arrow(move, kind: str) -> list[dict]:
        if move.kind == ENTER and move.point is not None:
            return [{"from": None, "to": move.point, "direction": move.direction, "kind": kind}]
        if move.target is not None and move.point is not None:
            return [{"from": move.point, "to": move.target, "direction": move.direction,
                     "kind": kind}]
        return []
