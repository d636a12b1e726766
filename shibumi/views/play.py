"""Live play in a notebook: a 3D pyramid, the legal moves and the AI, as one widget.

:class:`PlayWidget` puts a :class:`~shibumi.views.three.PyramidView` next to a
status line, the list of legal moves with a *Play* button, *Undo*, *New game*
and *AI move* buttons, a Human/AI selector per seat, the AI's strength and a
message line.  It works for every registered game: whatever a game's moves
are (placements, colour choices, passes, removals, relocations, slides,
entries), they are in the list, written as :meth:`shibumi.Match.move_text`
writes them.

Double-clicking a point of the 3D view plays the move that uses it when
there is just one; when there are several (a colour to pick, a ball to
move somewhere) the list narrows to them, and a second double-click on the
other end of a two-point move (source then target, or target then source)
completes it.  A click that no legal move uses changes nothing and says why.

Seats marked AI move by themselves after a human's move (synchronously, within
the time budget).  With no human seat, nothing moves by itself: *AI move*
plays one move at a time.  At a simultaneous node each human picks a secret
choice from their own dropdown; the AI's choices are added when the last
human has chosen.  In games with hidden information the status shows only
what the human to move may see (``game.observe``).

Everything the buttons do is also a method, for scripts and tests (the last
line of a notebook cell holding ``w`` shows the widget):

>>> w = PlayWidget("spline", seats=["human", "ai"], ai="mcts:200", seed=1, budget=60)
>>> w.click("c3")                  # White plays c3; the AI answers at once
Move('Wc3.0')
>>> len(w.match.history), w.match.current_player
(2, 0)
>>> w.click("c3")                  # taken: nothing changes, the message says why
>>> w.message
'No legal move uses the ball on c3; position unchanged. Legal: a1, a3, a5, a7, c1, c5, c7, e1 and 6 more.'
>>> w.undo(), w.match.history      # back to White's turn on the empty board
(True, [])
>>> w.choose("=R")
>>> w.message
"Not played: '=R' is not a legal move here; legal: a1 a3 a5 a7 c1 c3 c5 c7 e1 e3 e5 e7 g1 g3 g5 g7"

pythreejs and ipywidgets are imported by this module only.
"""

from __future__ import annotations

import html
import math
import random
import time
from collections import Counter
from urllib.parse import quote

import ipywidgets as widgets

from ..errors import NotationError, ShibumiError, is_number, shown
from ..game import CHANCE, SIMULTANEOUS, Game, Match
from ..geometry import NUM_POINTS
from ..notation import (ENTER, PLACE, SQUARE_POINTS, moves_matching, point_candidates, point_in,
                        point_name, square_of)
from ..players import MAX_ITERATIONS, MCTSPlayer, RandomPlayer
from ..registry import load
from .three import PyramidView

__all__ = ["PlayWidget", "move_labels"]

HUMAN, AI = "human", "ai"
_SEAT_LABELS = {HUMAN: "Human", AI: "AI"}
_HELP = ("Double-click a ball or a green marker to play there (drag to turn the "
         "pyramid), or pick a move in the list and press Play.")


# -- helpers -------------------------------------------------------------------

def move_labels(moves) -> dict:
    """The shortest text naming each move among these (as :func:`short_text`).

    Same answers as :func:`shibumi.notation.short_text` for every move, in one
    pass: a shape names a move when it is one of that move's four spellings
    (with or without colour, with or without levels) and no other move of the
    list is spelled that way.
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
    raise TypeError(f"PlayWidget takes a game, a game class or a game name like "
                    f"'spline', not {type(game_or_name).__name__}")


def _parse_seats(seats, n: int) -> list[str]:
    if seats is None:
        return [HUMAN] + [AI] * (n - 1)
    if isinstance(seats, str):
        seats = [seats] * n
    seats = list(seats)
    if len(seats) != n:
        raise ValueError(f"seats: give one of 'human' or 'ai' for each of the "
                         f"{n} players, got {len(seats)}")
    out = []
    for s in seats:
        kind = str(s).strip().lower()
        if kind not in (HUMAN, AI):
            raise ValueError(f"a seat is 'human' or 'ai', not {s!r}")
        out.append(kind)
    return out


def _parse_ai(ai: str) -> tuple[str, int | None]:
    """('mcts' or 'random', iteration cap or None) from 'mcts', 'mcts:N', 'random'."""
    if not isinstance(ai, str):
        raise ValueError(f"ai is 'mcts', 'mcts:ITERATIONS' or 'random', not {shown(ai)}")
    name, _, arg = ai.strip().lower().partition(":")
    if name == "random" and not arg:
        return "random", None
    if name == "mcts":
        if not arg:
            return "mcts", None
        if is_number(arg) and 1 <= int(arg) <= MAX_ITERATIONS:
            return "mcts", int(arg)
    raise ValueError(f"ai is 'mcts', 'mcts:ITERATIONS' (1-{MAX_ITERATIONS:,}) or 'random', "
                     f"not {shown(ai)}")


def _close(children) -> None:
    """Close widgets that are no longer shown (and the widgets inside them)."""
    for child in children:
        _close(getattr(child, "children", ()))
        child.close()


def _number(x: float) -> str:
    return f"{x:g}"


class PlayWidget:
    """Play any registered game in JupyterLab or Voila.

    ``game_or_name``: a game (``load('spline')``), a game class or a name
    (``'splade(players=3)'``).  ``seats``: ``'human'`` or ``'ai'`` for each
    player in turn order (default: the first player human, the others AI),
    or one word for all.  ``ai``: ``'mcts'`` (Monte-Carlo tree search for
    ``budget`` seconds a move), ``'mcts:N'`` (at most N iterations, and at
    most ``budget`` seconds: reproducible with a seed when N is small) or
    ``'random'``.  ``seed`` makes chance and the AI reproducible.

    Players are numbered from 0, as everywhere in the engine.
    """

    def __init__(self, game_or_name, seats=None, ai: str = "mcts", seed: int | None = None,
                 budget: float = 1.0, *, width: int = 480, height: int = 420,
                 record: str | None = None, link: str | None = None) -> None:
        self.game = _as_game(game_or_name)
        n = self.game.num_players
        self._seats = _parse_seats(seats, n)
        self._ai_kind, self._iterations = _parse_ai(ai)
        if not isinstance(budget, (int, float)) or not budget > 0 or math.isinf(budget):
            raise ValueError(f"budget is a number of seconds above 0, not {budget!r}")
        self._budget = float(budget)
        self._rng = random.Random(seed)
        self._seeded = seed is not None
        self._match = self.game.new_match(seed=seed, record=record)
        self._link = link                        # the page's address: a resume link is shown
        self._selected: int | None = None        # first point of a two-click move
        self._narrowed: list | None = None       # the moves the last click left open
        self._secret: dict = {}                  # simultaneous choices made so far
        self._history: list = []                 # (move, before, text), as match.history
        self._message = ""
        self._cache = None                       # (state, player, moves, labels)
        self._last_ai = ""                       # the sentence saying the last AI move

        self._view = PyramidView(width=width, height=height)
        self._view.on_click(self._on_view_click)
        self._build()
        self._refresh()
        self._run_ai()

    def __repr__(self) -> str:
        seats = ", ".join(self._seats)
        return f"<PlayWidget {self.game!r} seats=[{seats}] {self._match!r}>"

    # -- public properties -------------------------------------------------------
    @property
    def match(self) -> Match:
        """The game in progress (push moves through the widget, not directly)."""
        return self._match

    @property
    def view(self) -> PyramidView:
        return self._view

    @property
    def widget(self) -> widgets.Box:
        """The top-level box to display."""
        return self._root

    @property
    def message(self) -> str:
        """The last message shown (an error, a question or what the AI played)."""
        return self._message

    @property
    def status(self) -> str:
        """The status line as plain text."""
        return self._status_text

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self._seats)

    @property
    def options(self) -> list:
        """The moves offered in the list now (narrowed by a click, if it did)."""
        return list(self._narrowed) if self._narrowed is not None else self._moves_now()[0]

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self._root)

    # -- public actions ------------------------------------------------------------
    def click(self, point):
        """Act as a double-click on a point (a number 0-29 or a name like 'd4.1').

        Returns the move played, or None (then :attr:`message` says why, or
        asks to pick among several moves).
        """
        if self._match.is_over():
            return self._say(f"The game is over. {self._over_hint()}")
        if self._ai_seat_waits():
            return self._say(self._ai_hint())
        moves, labels = self._moves_now()
        p = self._point_from(point, moves)
        if p is None:
            return None
        name = self._name(p)
        options = self._narrowed if self._narrowed is not None else moves
        if self._selected is not None:
            first = self._selected
            if p == first:
                singles = [m for m in options if m.point == p and m.target is None]
                if len(singles) == 1:
                    return self._play(singles[0])
                if singles:
                    return self._say(f"Several moves use {name}: pick one in the list "
                                     f"({self._list(singles, labels)}).")
                self._clear_selection()
                self._show_options()
                return self._say(f"Selection cleared. {_HELP}")
            pair = [m for m in moves if m.target is not None
                    and {m.point, m.target} == {first, p}]
            if len(pair) == 1:
                return self._play(pair[0])
            self._clear_selection()
        else:
            first = None
        uses = [m for m in moves if p in (m.point, m.target)]
        if not uses:
            self._show_options()
            text = self._illegal_click(p, moves, labels)
            if first is not None:
                text = (f"No legal move joins {self._name(first)} and {name}, and "
                        + text[0].lower() + text[1:])
            return self._say(text)
        if len(uses) == 1:
            return self._play(uses[0])
        self._selected, self._narrowed = p, uses
        self._show_options()
        return self._say(self._narrow_message(p, uses, labels))

    def choose(self, move_text, player: int | None = None):
        """Play a move given as text (as in the list: 'd6', '=R', 'b2>d4', 'pass').

        Plays for the player to move, whatever their seat.  At a simultaneous
        node it records ``player``'s secret choice (default: the first human
        who has not chosen) and plays them all once every human has chosen.
        Returns the move played or chosen, or None with a :attr:`message`.
        """
        if self._match.is_over():
            return self._say(f"The game is over. {self._over_hint()}")
        cp = self._match.current_player
        try:
            if cp == SIMULTANEOUS:
                who = self._chooser() if player is None else player
                if who is None or not 0 <= who < self.game.num_players:
                    return self._say(f"Say which player chooses (0-{self.game.num_players - 1}).")
                if who in self._secret:
                    return self._say(f"{self.game.player_name(who)} has already chosen.")
                legal = self.game.legal_moves(self._match.state, who)
                move = self._resolve(move_text, legal)
                self._selected, self._narrowed = None, None
                return self._lock(who, move)
            if player is not None and player != cp:
                return self._say(f"It is {self.game.player_name(cp)}'s turn, not "
                                 f"{self.game.player_name(player)}'s.")
            move = self._resolve(move_text, self._moves_now()[0])
        except ShibumiError as exc:
            return self._say(f"Not played: {exc}")
        return self._play(move)

    def undo(self) -> bool:
        """Take back the last move, and the AI's moves after a human's: back to a human's turn."""
        if self._secret:
            self._secret.clear()
            self._clear_selection()
            self._refresh()
            self._say("Simultaneous choices cleared: choose again.")
            return True
        if not self._can_undo():
            self._say("Nothing to undo.")
            return False
        self._match.pop()
        if HUMAN in self._seats:
            while self._can_undo() and not self._humans_turn():
                self._match.pop()
        self._clear_selection()
        self._refresh()
        self._say(f"Move taken back. {self._turn_hint()}")
        self._run_ai()
        return True

    def new_game(self) -> None:
        """Start again from the game's initial state (AI seats open if it is their turn)."""
        seed = self._rng.getrandbits(32) if self._seeded else None
        self._match = self.game.new_match(seed=seed)
        self._secret.clear()
        self._clear_selection()
        self._view.clear_marks()
        self._view.clear_paths()
        self._refresh()
        self._say(f"New game. {self._turn_hint()}")
        self._run_ai()

    def ai_move(self):
        """Let the AI play one move for the player to move (all choices at a
        simultaneous node), then let AI seats answer if a human is seated.
        Returns the move (or tuple of moves) played, or None."""
        if self._match.is_over():
            return self._say(f"The game is over. {self._over_hint()}")
        self._clear_selection()
        played = self._ai_step()
        self._refresh()
        self._run_ai(lead=self._last_ai)
        return played

    def play_out(self, max_moves: int = 10_000) -> int:
        """Let the AI play every seat to the end (or ``max_moves``); returns moves played."""
        count = 0
        while not self._match.is_over() and count < max_moves:
            self._clear_selection()
            self._ai_step(refresh=False)
            count += 1
        self._refresh()
        if self._match.is_over():
            self._say("Played to the end.")
        return count

    def set_seat(self, player: int, kind: str) -> None:
        """Seat a human or the AI at ``player`` (0-based); the AI moves at once if due."""
        kind = _parse_seats([kind], 1)[0]
        if not 0 <= player < self.game.num_players:
            raise ValueError(f"player is 0-{self.game.num_players - 1}, not {player!r}")
        self._seats[player] = kind
        if self._seat_widgets[player].value != kind:
            self._seat_widgets[player].value = kind   # calls back here; harmless
        self._refresh()
        self._run_ai()

    # -- building the widgets -----------------------------------------------------
    def _build(self) -> None:
        info = self.game.info
        L = widgets.Layout
        self._title = widgets.HTML(
            f"<b>{html.escape(info.name)}</b> <span style='color:#666'>"
            f"{html.escape(info.summary)}</span>", layout=L(width="100%"))
        self._status_w = widgets.HTML(layout=L(width="100%"))
        self._status_text = ""
        self._message_w = widgets.HTML(layout=L(width="100%", min_height="1.6em"))
        self._moves_label = widgets.HTML("Legal moves")
        self._moves_w = widgets.Select(options=[], rows=8, layout=L(width="100%"))
        self._play_b = widgets.Button(description="Play", button_style="primary",
                                      tooltip="Play the move selected in the list",
                                      layout=L(width="auto"))
        self._all_b = widgets.Button(description="Show all moves", layout=L(width="auto"),
                                     tooltip="Undo the narrowing made by a click")
        self._undo_b = widgets.Button(description="Undo", icon="undo", layout=L(width="auto"),
                                      tooltip="Take back moves to your previous turn")
        self._new_b = widgets.Button(description="New game", icon="refresh",
                                     layout=L(width="auto"))
        self._ai_b = widgets.Button(description="AI move", icon="cogs", layout=L(width="auto"),
                                    tooltip="Let the AI play the next move")
        self._secret_box = widgets.VBox(layout=L(width="100%"))
        self._seat_widgets = []
        for p in range(self.game.num_players):
            dd = widgets.Dropdown(options=[("Human", HUMAN), ("AI", AI)], value=self._seats[p],
                                  description=self.game.player_name(p),
                                  layout=L(width="210px"))
            dd.observe(lambda change, p=p: self._guard(self._seat_changed, p, change["new"]),
                       names="value")
            self._seat_widgets.append(dd)
        self._ai_kind_w = widgets.Dropdown(options=[("MCTS", "mcts"), ("Random", "random")],
                                           value=self._ai_kind, description="AI",
                                           layout=L(width="210px"))
        low = min(-2.0, math.floor(math.log10(self._budget) * 10) / 10)
        high = max(1.0, math.ceil(math.log10(self._budget) * 10) / 10)
        self._budget_w = widgets.FloatLogSlider(
            value=self._budget, base=10, min=low, max=high, step=0.1,
            description="s / move", readout_format=".2f", continuous_update=False,
            layout=L(width="300px"))
        self._ai_kind_w.observe(lambda c: self._guard(self._ai_kind_changed, c["new"]),
                                names="value")
        self._budget_w.observe(lambda c: self._guard(self._budget_changed, c["new"]),
                               names="value")
        self._history_w = widgets.HTML(layout=L(width="100%", max_height="7em",
                                                overflow="auto"))
        self._help_w = widgets.HTML(f"<small style='color:#666'>{_HELP}</small>")
        self._link_w = widgets.HTML()

        self._play_b.on_click(lambda b: self._guard(self._play_selected))
        self._all_b.on_click(lambda b: self._guard(self._show_all))
        self._undo_b.on_click(lambda b: self._guard(self.undo))
        self._new_b.on_click(lambda b: self._guard(self.new_game))
        self._ai_b.on_click(lambda b: self._guard(self.ai_move))

        self._list_box = widgets.VBox([self._moves_label, self._moves_w,
                                       widgets.HBox([self._play_b, self._all_b])],
                                      layout=L(width="100%"))
        panel = widgets.VBox([
            self._title, self._status_w, self._message_w, self._list_box,
            self._secret_box, widgets.HBox([self._undo_b, self._new_b, self._ai_b]),
            widgets.HTML("<b>Seats</b>"), *self._seat_widgets,
            self._ai_kind_w, self._budget_w,
            widgets.HTML("<b>Moves so far</b>"), self._history_w, self._link_w, self._help_w,
        ], layout=L(width="340px", padding="0 0 0 12px"))
        self._root = widgets.Box([self._view.widget, panel],
                                 layout=L(display="flex", flex_flow="row wrap",
                                          align_items="flex-start"))

    def _guard(self, action, *args):
        """Run a widget callback; an unexpected error is shown, not lost in a log."""
        try:
            action(*args)
        except Exception as exc:   # noqa: BLE001 - the message area is the only place seen
            self._say(f"Error: {type(exc).__name__}: {exc}", error=True)

    def _on_view_click(self, point: int) -> None:
        self._guard(self.click, point)

    def _play_selected(self) -> None:
        if self._match.current_player == SIMULTANEOUS:
            return
        move = self._moves_w.value
        if move is None:
            self._say("Pick a move in the list first.")
            return
        self._play(move)

    def _show_all(self) -> None:
        self._clear_selection()
        self._show_options()
        self._say(_HELP)

    def _seat_changed(self, player: int, kind: str) -> None:
        if self._seats[player] != kind:
            self.set_seat(player, kind)

    def _ai_kind_changed(self, kind: str) -> None:
        self._ai_kind = kind
        self._budget_w.disabled = kind == "random"

    def _budget_changed(self, value: float) -> None:
        self._budget = float(value)

    # -- moves -----------------------------------------------------------------------
    def _mover(self) -> int | None:
        """The player whose input is awaited: the player to move or, at a
        simultaneous node, the first human (else the first seat) yet to choose."""
        cp = self._match.current_player
        if cp >= 0:
            return cp
        if cp == SIMULTANEOUS:
            return self._chooser()
        return None

    def _chooser(self) -> int | None:
        waiting = [p for p in range(self.game.num_players) if p not in self._secret]
        humans = [p for p in waiting if self._seats[p] == HUMAN]
        return (humans or waiting or [None])[0]

    def _moves_now(self, player: int | None = None):
        """(legal moves, labels) for the player whose input is awaited."""
        state = self._match.state
        if player is None:
            player = self._mover()
        if player is None:
            return [], {}
        if self._cache is not None and self._cache[0] is state and self._cache[1] == player:
            return self._cache[2], self._cache[3]
        if self._match.current_player == SIMULTANEOUS:
            moves = list(self.game.legal_moves(state, player))
        else:
            moves = list(self._match.legal_moves())
        labels = move_labels(moves)
        moves.sort(key=lambda m: (labels[m], m.text()))
        self._cache = (state, player, moves, labels)
        return moves, labels

    def _resolve(self, move_text, legal):
        if not isinstance(move_text, str):
            if move_text in legal:
                return move_text
            raise ShibumiError(f"{move_text!r} is not a legal move here")
        found = moves_matching(move_text, legal)
        if len(found) == 1:
            return found[0]
        labels = move_labels(legal)
        if not found:
            shown = " ".join(sorted(labels.values())) or "none"
            raise ShibumiError(f"{move_text!r} is not a legal move here; legal: {shown}")
        raise ShibumiError(f"{move_text!r} is ambiguous: it may mean "
                           f"{' or '.join(m.text() for m in found)}")

    def _play(self, move):
        """Play a legal move of the awaited player, then let the AI seats answer."""
        who = self._mover()
        moves, labels = self._moves_now()
        text = labels.get(move, move.text())
        self._clear_selection()
        if self._match.current_player == SIMULTANEOUS:
            return self._lock(who, move)
        self._match.push(move)
        self._refresh()
        played = f"{self.game.player_name(who)} played {text}."
        self._say(f"{played} {self._turn_hint()}")
        self._run_ai(lead=played)
        return move

    def _lock(self, player: int, move):
        self._secret[player] = move
        self._say(f"{self.game.player_name(player)}'s choice is locked in (kept secret).")
        if all(p in self._secret for p in range(self.game.num_players)
               if self._seats[p] == HUMAN):
            self._resolve_joint()
        self._refresh()
        self._run_ai()
        return move

    def _resolve_joint(self) -> tuple:
        state = self._match.state
        choices = []
        for p in range(self.game.num_players):
            choices.append(self._secret[p] if p in self._secret else self._ai_choose(p))
        self._secret.clear()
        texts = [move_labels(self.game.legal_moves(state, p)).get(m, m.text())
                 for p, m in enumerate(choices)]
        self._match.push_joint(choices)
        shown = ", ".join(f"{self.game.player_name(p)} {t}" for p, t in enumerate(texts))
        self._last_ai = f"Choices revealed: {shown}."
        self._say(f"{self._last_ai} {self._turn_hint()}")
        return tuple(choices)

    # -- the AI ----------------------------------------------------------------------
    def _player(self):
        seed = self._rng.getrandbits(32) if self._seeded else None
        if self._ai_kind == "random":
            return RandomPlayer(seed)
        return MCTSPlayer(iterations=self._iterations or MAX_ITERATIONS, seconds=self._budget,
                          seed=seed)

    def _ai_choose(self, player: int):
        """The AI's move for `player`; the player looks only at what that seat may
        see (``game.observe``), however it is given the state."""
        return self._player().choose(self.game, self._match.state, player)

    def _ai_step(self, refresh: bool = True, lead: str = ""):
        """One AI move for the player to move; the message starts with ``lead``
        (what was just played) and ends with whose turn it is."""
        self._clear_selection()
        cp = self._match.current_player
        if cp == SIMULTANEOUS:
            return self._resolve_joint()
        if cp < 0:
            return None
        name = self.game.player_name(cp)
        self._say(f"{lead} {name} (AI) is thinking…".lstrip())
        start = time.perf_counter()
        _, labels = self._moves_now()
        move = self._ai_choose(cp)
        text = labels.get(move, move.text())
        self._match.push(move)
        if refresh:
            self._refresh()
        self._last_ai = f"{name} (AI) played {text} ({time.perf_counter() - start:.1f} s)."
        self._say(f"{lead} {self._last_ai} {self._turn_hint()}".lstrip())
        return move

    def _run_ai(self, lead: str = "") -> None:
        """With a human seated, let AI seats move until a human is to move.

        ``lead`` (what the human just played) stays at the head of the message,
        followed by every AI move, so that nothing played goes unsaid."""
        if HUMAN not in self._seats:
            return
        while not self._match.is_over():
            cp = self._match.current_player
            if cp >= 0 and self._seats[cp] == AI:
                self._ai_step(lead=lead)
                lead = f"{lead} {self._last_ai}".lstrip()
            else:
                break

    # -- undo --------------------------------------------------------------------------
    def _can_undo(self) -> bool:
        return any(self.game.current_player(before) != CHANCE
                   for _, before in self._match.history)

    def _humans_turn(self) -> bool:
        cp = self._match.current_player
        if cp == SIMULTANEOUS:
            return HUMAN in self._seats
        return cp >= 0 and self._seats[cp] == HUMAN

    def _ai_seat_waits(self) -> bool:
        """Is it an AI seat's turn while a human sits elsewhere (the AI is due)?"""
        cp = self._match.current_player
        return cp >= 0 and self._seats[cp] == AI and HUMAN in self._seats

    # -- points and messages ----------------------------------------------------------
    def _point_from(self, point, moves) -> int | None:
        if isinstance(point, bool) or not isinstance(point, (int, str)):
            raise TypeError(f"a point is a number 0-{NUM_POINTS - 1} or a name like "
                            f"'d4.1', not {type(point).__name__}")
        if isinstance(point, int):
            if not 0 <= point < NUM_POINTS:
                self._say(f"There is no point {point}: points are 0-{NUM_POINTS - 1}.")
                return None
            return point
        try:
            cands = point_candidates(point)
        except NotationError as exc:
            self._say(f"Not played: {exc}")
            return None
        if len(cands) == 1:
            return cands[0]
        used = [p for p in cands if any(p in (m.point, m.target) for m in moves)]
        if len(used) == 1:
            return used[0]
        return point_in(point, self._shown_position().occupied)

    def _name(self, p: int) -> str:
        """A point's square (``e5``), with its level only when the square is ambiguous now."""
        square = square_of(p)
        position = self._match.state.position
        live = position.occupied | position.playable()
        if any(q != p and live >> q & 1 for q in SQUARE_POINTS[square]):
            return point_name(p)
        return square

    def _list(self, moves, labels, most: int = 8) -> str:
        names = [labels.get(m, m.text()) for m in moves]
        more = f" and {len(names) - most} more" if len(names) > most else ""
        return ", ".join(names[:most]) + more

    def _illegal_click(self, p: int, moves, labels) -> str:
        name = self._name(p)
        position = self._match.state.position
        if not moves:
            return f"No move can be made now. {self._turn_hint()}"
        where = (f"the ball on {name}" if position.occupied >> p & 1 else
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
            return (f"Moving the ball on {name}: double-click where it goes, or pick "
                    f"in the list ({self._list(starts, labels)}).")
        hints = []
        if len(singles) == 1:
            hints.append(f"double-click {name} again for {labels[singles[0]]}")
        if starts or ends:
            hints.append("double-click the other end of the move")
        hint = ("; ".join(hints) + ", or ") if hints else ""
        return (f"{len(uses)} moves use {name}: {hint}pick one in the list "
                f"({self._list(uses, labels)}).")

    def _say(self, text: str, error: bool | None = None):
        """Show a message; returns None so that actions can ``return self._say(...)``."""
        self._message = text
        if error is None:
            error = text.startswith(("No legal move", "Not played", "Error", "There is no",
                                     "It is", "The game is over", "Nothing"))
        colour = "#b00020" if error else "#1d4f91"
        self._message_w.value = (f"<span style='color:{colour}'>{html.escape(text)}</span>"
                                 if text else "")
        return None

    def _turn_hint(self) -> str:
        if self._match.is_over():
            return self._outcome_text()
        cp = self._match.current_player
        if cp == SIMULTANEOUS:
            return "Everyone chooses at once."
        if cp >= 0:
            seat = "you" if self._seats[cp] == HUMAN else "AI"
            return f"{self.game.player_name(cp)} ({seat}) to move."
        return ""

    def _ai_hint(self) -> str:
        cp = self._match.current_player
        return (f"It is {self.game.player_name(cp)}'s turn, played by the AI: press "
                "AI move, or make that seat Human.")

    def _over_hint(self) -> str:
        return f"{self._outcome_text()} Press New game, or Undo."

    def _outcome_text(self) -> str:
        outcome = self._match.outcome()
        if outcome is None:
            return ""
        g = self.game
        if outcome.is_draw:
            text = "Not solved." if g.num_players == 1 else "Draw."
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

    # -- drawing ---------------------------------------------------------------------
    def _viewer(self) -> int | None:
        """Whose eyes the board and status are shown through (None: everything)."""
        if self._match.is_over():
            return None
        humans = [p for p, s in enumerate(self._seats) if s == HUMAN]
        cp = self._match.current_player
        if cp >= 0 and self._seats[cp] == HUMAN:
            return cp
        if cp == SIMULTANEOUS:
            waiting = [p for p in humans if p not in self._secret]
            if waiting:
                return waiting[0]
        return humans[0] if len(humans) == 1 else None

    def _shown_state(self):
        viewer = self._viewer()
        state = self._match.state
        return state if viewer is None else self.game.observe(state, viewer)

    def _shown_position(self):
        """The pyramid on screen: the viewer's own set where each player has one."""
        return self.game.board_of(self._shown_state(), self._board_seat())

    def _board_seat(self) -> int | None:
        seat = self._viewer()
        if seat is None and self._match.current_player >= 0:
            seat = self._match.current_player
        return seat

    def _clear_selection(self) -> None:
        self._selected = None
        self._narrowed = None

    def _refresh(self) -> None:
        shown = self._shown_state()
        self._view.update(self.game.board_of(shown, self._board_seat()))
        self._mark_last()
        self._show_options()
        self._show_history()
        self._show_link()
        self._show_status(shown)
        over = self._match.is_over()
        self._undo_b.disabled = not (self._can_undo() or self._secret)
        self._ai_b.disabled = over

    def _mark_last(self) -> None:
        for move, before in reversed(self._match.history):
            if isinstance(move, tuple):
                break
            if self.game.current_player(before) == CHANCE:
                continue
            point = move.target if move.target is not None else move.point
            if point is not None:
                self._view.mark_last(point)
                return
            break
        self._view.mark_last(None)

    def _show_options(self) -> None:
        """The move list (or the secret-choice rows) and the playable markers."""
        simultaneous = self._match.current_player == SIMULTANEOUS
        over = self._match.is_over()
        moves, labels = self._moves_now()
        listed = self._narrowed if self._narrowed is not None else moves
        if simultaneous or over:
            self._set_list([], labels)
        else:
            self._set_list(listed, labels)
        self._list_box.layout.display = "none" if simultaneous else None
        self._all_b.layout.display = None if self._narrowed is not None else "none"
        self._play_b.disabled = over or not listed
        if over:
            self._moves_label.value = "Legal moves: none, the game is over"
        else:
            who = self._mover()
            name = self.game.player_name(who) if who is not None else ""
            what = "moves that use the point clicked" if self._narrowed is not None \
                else "legal moves"
            self._moves_label.value = html.escape(f"{name}: {len(listed)} {what}")
        self._show_secret_rows(labels)
        # markers on the empty points the moves offered use; a dot on a first click
        position = self._shown_position()
        mask = 0
        if not over and not self._ai_seat_waits():
            for m in listed:
                for q in (m.point, m.target):
                    if q is not None and not position.occupied >> q & 1:
                        mask |= 1 << q
        self._view.show_playable(mask)
        self._view.clear_marks()
        if self._selected is not None:
            self._view.mark(self._selected, "•")
            others = {q for m in listed for q in (m.point, m.target)
                      if q is not None and q != self._selected and position.occupied >> q & 1}
            if others:
                self._view.mark(sorted(others), "+")

    def _set_list(self, moves, labels) -> None:
        options = tuple((labels.get(m, m.text()), m) for m in moves)
        if tuple(self._moves_w.options) == options:
            return                      # keep what the user has selected
        self._moves_w.options = options
        # a narrowed list comes with its first move selected; a full one with none
        self._moves_w.value = options[0][1] if self._narrowed is not None and options else None

    def _show_secret_rows(self, labels) -> None:
        old = self._secret_box.children
        if self._match.current_player != SIMULTANEOUS:
            if old:
                self._secret_box.children = ()
                _close(old)
            return
        rows = [widgets.HTML("<b>Simultaneous choice</b>: each human picks in secret; "
                             "the AI seats choose when the last human has.")]
        chooser = self._chooser()
        for p in range(self.game.num_players):
            name = self.game.player_name(p)
            if self._seats[p] == AI and p not in self._secret:
                rows.append(widgets.HTML(f"{html.escape(name)}: AI"))
                continue
            if p in self._secret:
                rows.append(widgets.HTML(f"{html.escape(name)}: ✓ chosen (hidden)"))
                continue
            moves, own = self._moves_now(p)
            if p == chooser and self._narrowed is not None:
                moves = self._narrowed
            dd = widgets.Dropdown(options=[(own.get(m, m.text()), m) for m in moves],
                                  description=name, layout=widgets.Layout(width="220px"))
            button = widgets.Button(description="Lock in", layout=widgets.Layout(width="auto"))
            button.on_click(lambda b, p=p, dd=dd: self._guard(self._lock_from, p, dd.value))
            rows.append(widgets.HBox([dd, button]))
        self._secret_box.children = tuple(rows)
        _close(old)

    def _lock_from(self, player: int, move) -> None:
        if move is None:
            self._say("Pick a choice first.")
            return
        self._clear_selection()
        self._lock(player, move)

    def _show_status(self, shown) -> None:
        g = self.game
        lines = []
        if self._match.is_over():
            lines.append(f"Game over. {self._outcome_text()}")
        else:
            cp = self._match.current_player
            if cp == SIMULTANEOUS:
                parts = [f"{g.player_name(p)} ({_SEAT_LABELS[self._seats[p]]}"
                         f"{', chosen' if p in self._secret else ''})"
                         for p in range(g.num_players)]
                lines.append("Simultaneous choice: " + ", ".join(parts) + ".")
            elif cp >= 0:
                lines.append(f"{g.player_name(cp)} ({_SEAT_LABELS[self._seats[cp]]}) to move.")
            players = ", ".join(f"{g.player_name(p)}: {_SEAT_LABELS[s]}"
                                for p, s in enumerate(self._seats))
            played = sum(1 for _, before in self._match.history
                         if self.game.current_player(before) != CHANCE)
            lines.append(f"Move {played + 1}. {players}.")
        lines.extend(self._extras(shown))
        self._status_text = "\n".join(lines)
        self._status_w.value = "<br>".join(html.escape(line) for line in lines)

    def _extras(self, shown) -> list[str]:
        """What ``game.describe`` adds beyond the board, the last move and the turn."""
        try:
            text = self.game.describe(shown)
        except Exception:   # noqa: BLE001 - a masked state a game cannot describe
            return []
        diagram = shown.position.diagram()
        if text.startswith(diagram):
            text = text[len(diagram):]
        keep = []
        for line in text.splitlines():
            line = line.strip()
            if not line or line.startswith(("Last move:", "Game over")) \
                    or line.endswith("to move."):
                continue
            keep.append(line if len(line) <= 160 else line[:159] + "…")
        return keep

    def resume_link(self) -> str | None:
        """The page's address with this game's record: open it to take the game up again."""
        if self._link is None:
            return None
        record = self._match.record()
        return self._link + ("&record=" + quote(record) if record else "")

    def _show_link(self) -> None:
        link = self.resume_link()
        if link is not None:
            self._link_w.value = (f"<small><a href='{html.escape(link)}'>Link to this game</a>"
                                  " (bookmark it or share it to take the game up later)</small>")

    def _show_history(self) -> None:
        hist = self._match.history
        cached = self._history
        same = 0
        while (same < min(len(cached), len(hist)) and cached[same][0] is hist[same][0]
               and cached[same][1] is hist[same][1]):
            same += 1
        del cached[same:]
        hide_chance = self.game.info.hidden_information and not self._match.is_over()
        for move, before in hist[same:]:
            mover = self.game.current_player(before)
            if mover == CHANCE:
                text = "chance: ?" if hide_chance else f"chance: {move.text()}"
            elif isinstance(move, tuple):
                text = " / ".join(
                    f"{self.game.player_name(p)} "
                    f"{move_labels(self.game.legal_moves(before, p)).get(m, m.text())}"
                    for p, m in enumerate(move))
            else:
                text = (f"{self.game.player_name(mover)} "
                        f"{move_labels(self.game.legal_moves(before)).get(move, move.text())}")
            cached.append((move, before, text))
        items = [f"{i + 1}. {html.escape(t)}" for i, (_, _, t) in enumerate(cached)]
        self._history_w.value = ("<small>" + "<br>".join(reversed(items)) + "</small>"
                                 if items else "<small>none yet</small>")
