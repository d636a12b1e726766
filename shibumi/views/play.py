"""Live play in a notebook: a 3D pyramid, the legal moves and the AI, as one widget.

:class:`PlayWidget` puts a :class:`~shibumi.views.three.PyramidView` next to a
status line, the list of legal moves with a *Play* button, *Undo*, *New game*
and *AI move* buttons, a Human/AI selector per seat, the AI's strength and a
message line.  It works for every registered game: whatever a game's moves
are (placements, colour choices, passes, removals, relocations, slides,
entries), they are in the list, written as :meth:`shibumi.Match.move_text`
writes them.

What a click means, whose turn it is, secret choices, who may see what, undo
and the messages are :class:`shibumi.interaction.Table`'s, the same as on
the book's boards and in the terminal; this widget only draws and forwards.
Double-clicking a point of the 3D view plays the move that uses it when
there is just one; when there are several the list narrows to them, and a
second double-click on the other end of a two-point move completes it.

Seats marked AI move by themselves after a human's move; while they think,
the list and the buttons are disabled, and a move is played only with the
version of the position it was picked on.  With no human seat, nothing moves
by itself: *AI move* plays one move at a time.  At a simultaneous node each
human picks a secret choice from their own dropdown.  With two humans in a
game with hidden parts, the board is covered between their turns until the
next one presses *Show*.

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
from urllib.parse import quote

import ipywidgets as widgets

from ..errors import shown
from ..game import SIMULTANEOUS, Match
from ..interaction import AI, HUMAN, Table, move_labels
from .three import PyramidView, view_of

__all__ = ["PlayWidget", "move_labels"]

_SEAT_LABELS = {HUMAN: "Human", AI: "AI"}
_HELP = ("Double-click a ball or a green marker to play there (drag to turn the "
         "pyramid), or pick a move in the list and press Play.")


def _close(children) -> None:
    """Close widgets that are no longer shown (and the widgets inside them)."""
    for child in children:
        _close(getattr(child, "children", ()))
        child.close()


class PlayWidget:
    """Play any registered game in JupyterLab.

    ``game_or_name``: a game (``load('spline')``), a game class or a name
    (``'splade(players=3)'``).  ``seats``: ``'human'`` or ``'ai'`` for each
    player in turn order (default: the first player human, the others AI),
    or one word for all.  ``ai``: a strength (``'medium'``), ``'mcts'``
    (Monte-Carlo tree search for ``budget`` seconds a move), ``'mcts:N'`` (at
    most N iterations, and at most ``budget`` seconds: reproducible with a
    seed when N is small) or ``'random'``.  ``seed`` makes chance and the AI
    reproducible.  ``record`` resumes a game; ``link`` (the page's address)
    shows a link that resumes it.

    Players are numbered from 0, as everywhere in the engine.
    """

    def __init__(self, game_or_name, seats=None, ai: str = "mcts", seed: int | None = None,
                 budget: float = 1.0, *, width: int = 480, height: int = 420,
                 record: str | None = None, link: str | None = None) -> None:
        if isinstance(budget, bool) or not isinstance(budget, (int, float)) \
                or not budget > 0 or math.isinf(budget):
            raise ValueError(f"budget is a number of seconds above 0, not {shown(budget)}")
        self.table = Table(game_or_name, seats=seats, ai=ai, seed=seed, budget=budget,
                           record=record)
        self.game = self.table.game
        self._link = link
        self._listed_version = -1            # the table's version the list was filled at
        # the 3D view of the game's board type (the pyramid's, or a grid's)
        self._view = view_of(self.game.board.empty_position(), width=width, height=height)
        self._view.on_click(lambda point: self._guard(self.click, point))
        self._build()
        self._refresh()
        self._answer()

    def __repr__(self) -> str:
        return f"<PlayWidget {self.game!r} seats=[{', '.join(self.seats)}] {self.match!r}>"

    # -- public properties -------------------------------------------------------
    @property
    def match(self) -> Match:
        """The game in progress (push moves through the widget, not directly)."""
        return self.table.match

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
        return self.table.message

    @property
    def status(self) -> str:
        """The status line as plain text."""
        return self._status_text

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.table.seats)

    @property
    def options(self) -> list:
        """The moves offered in the list now (narrowed by a click, if it did)."""
        return self.table.options()

    @property
    def _secret(self) -> dict:
        return self.table._secret

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self._root)

    # -- public actions ------------------------------------------------------------
    def click(self, point):
        """Act as a double-click on a point (a number 0-29 or a name like 'd4.1').

        Returns the move played, or None (then :attr:`message` says why, or
        asks to pick among several moves).
        """
        return self._act(self.table.click, point)

    def choose(self, move_text, player: int | None = None):
        """Play a move given as text (as in the list: 'd6', '=R', 'b2>d4', 'pass').

        At a simultaneous node it records ``player``'s secret choice (default:
        the first human who has not chosen).  Returns the move played or
        chosen, or None with a :attr:`message`.
        """
        return self._act(self.table.choose, move_text, player)

    def undo(self) -> bool:
        """Take back the last move, and the AI's moves after a human's: back to a human's turn."""
        return self._act(self.table.undo)

    def new_game(self) -> None:
        """Start again from the game's initial state (AI seats open if it is their turn)."""
        self._view.clear_marks()
        self._view.clear_paths()
        self._act(self.table.new_game)

    def reveal(self) -> None:
        """The next human is alone at the screen: show the board (after *Pass the device*)."""
        self._act(self.table.reveal)

    def ai_move(self):
        """Let the AI play one move for the player to move (all choices at a
        simultaneous node), then let AI seats answer if a human is seated.
        Returns the move (or tuple of moves) played, or None."""
        return self._act(self.table.ai_step)

    def play_out(self, max_moves: int = 10_000) -> int:
        """Let the AI play every seat to the end (or ``max_moves``); returns moves played."""
        count = self.table.play_out(max_moves)
        self._refresh()
        return count

    def set_seat(self, player: int, kind: str) -> None:
        """Seat a human or the AI at ``player`` (0-based); the AI moves at once if due."""
        self.table.set_seat(player, kind)
        if self._seat_widgets[player].value != self.table.seats[player]:
            self._seat_widgets[player].value = self.table.seats[player]   # calls back; harmless
        self._refresh()
        self._answer()

    def resume_link(self) -> str | None:
        """The page's address with this game's record: open it to take the game up again."""
        if self._link is None:
            return None
        record = self.match.record()
        return self._link + ("&record=" + quote(record) if record else "")

    # -- plumbing --------------------------------------------------------------------
    def _act(self, action, *args):
        """Run a table action, draw the result, then let AI seats answer."""
        result = action(*args)
        self._refresh()
        self._answer()
        return result

    def _answer(self) -> None:
        """With a human seated, AI seats move until a human is to move.  Input is
        locked meanwhile, so nothing picked during the search can carry over."""
        if not self.table.ai_due:
            return
        self._lock_input(True)
        try:
            self.table.run_ai()
        finally:
            self._lock_input(False)
            self._refresh()

    def _lock_input(self, locked: bool) -> None:
        for w in (self._moves_w, self._play_b, self._all_b, self._undo_b, self._new_b,
                  self._ai_b, *self._seat_widgets):
            w.disabled = locked
        if locked:
            cp = self.match.current_player
            who = self.game.player_name(cp) if cp >= 0 else "The AI"
            self._say_html(f"{who} (AI) is thinking…", error=False)

    def _guard(self, action, *args):
        """Run a widget callback; an unexpected error is shown, not lost in a log."""
        try:
            return action(*args)
        except Exception as exc:   # noqa: BLE001 - the message area is the only place seen
            self.table.message = f"Error: {type(exc).__name__}: {exc}"
            self._say_html(self.table.message, error=True)
            return None

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
        self._cover_w = widgets.HTML()
        self._show_b = widgets.Button(description="Show", button_style="warning",
                                      tooltip="Show the board to the player named above")
        self._cover_box = widgets.VBox([self._cover_w, self._show_b])
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
            dd = widgets.Dropdown(options=[("Human", HUMAN), ("AI", AI)],
                                  value=self.table.seats[p], description=self.game.player_name(p),
                                  layout=L(width="210px"))
            dd.observe(lambda change, p=p: self._guard(self._seat_changed, p, change["new"]),
                       names="value")
            self._seat_widgets.append(dd)
        self._ai_kind_w = widgets.Dropdown(options=[("MCTS", "mcts"), ("Random", "random")],
                                           value=self.table.ai_kind, description="AI",
                                           layout=L(width="210px"))
        budget = self.table.budget
        low = min(-2.0, math.floor(math.log10(budget) * 10) / 10)
        high = max(1.0, math.ceil(math.log10(budget) * 10) / 10)
        self._budget_w = widgets.FloatLogSlider(
            value=budget, base=10, min=low, max=high, step=0.1,
            description="s / move", readout_format=".2f", continuous_update=False,
            layout=L(width="300px"))
        self._ai_kind_w.observe(lambda c: self._guard(self._ai_changed), names="value")
        self._budget_w.observe(lambda c: self._guard(self._ai_changed), names="value")
        self._history_w = widgets.HTML(layout=L(width="100%", max_height="12em",
                                                overflow="auto"))
        self._help_w = widgets.HTML(f"<small style='color:#666'>{_HELP}</small>")
        self._link_w = widgets.HTML()

        self._play_b.on_click(lambda b: self._guard(self._play_selected))
        self._all_b.on_click(lambda b: self._guard(self._act, self.table.show_all))
        self._undo_b.on_click(lambda b: self._guard(self.undo))
        self._new_b.on_click(lambda b: self._guard(self.new_game))
        self._ai_b.on_click(lambda b: self._guard(self.ai_move))
        self._show_b.on_click(lambda b: self._guard(self.reveal))

        self._list_box = widgets.VBox([self._moves_label, self._moves_w,
                                       widgets.HBox([self._play_b, self._all_b])],
                                      layout=L(width="100%"))
        panel = widgets.VBox([
            self._title, self._status_w, self._message_w, self._cover_box, self._list_box,
            self._secret_box, widgets.HBox([self._undo_b, self._new_b, self._ai_b]),
            widgets.HTML("<b>Seats</b>"), *self._seat_widgets,
            self._ai_kind_w, self._budget_w,
            widgets.HTML("<b>Moves so far</b>"), self._history_w, self._link_w, self._help_w,
        ], layout=L(width="340px", padding="0 0 0 12px"))
        self._root = widgets.Box([self._view.widget, panel],
                                 layout=L(display="flex", flex_flow="row wrap",
                                          align_items="flex-start"))

    def _play_selected(self) -> None:
        move = self._moves_w.value
        if move is None:
            self.table.message = "Pick a move in the list first."
            self._say_html(self.table.message, error=True)
            return
        # The version the list was filled at: a pick on an older list is refused.
        self._act(self.table.choose, move, None, self._listed_version)

    def _seat_changed(self, player: int, kind: str) -> None:
        if self.table.seats[player] != kind:
            self.set_seat(player, kind)

    def _ai_changed(self) -> None:
        kind = self._ai_kind_w.value
        self.table.set_ai(kind if kind == "random" else "mcts", self._budget_w.value)
        self._budget_w.disabled = kind == "random"

    # -- drawing ---------------------------------------------------------------------
    def _say_html(self, text: str, error: bool) -> None:
        colour = "#b00020" if error else "#1d4f91"
        self._message_w.value = (f"<span style='color:{colour}'>{html.escape(text)}</span>"
                                 if text else "")

    def _shown_position(self):
        """The pyramid on screen: the viewer's own set where each player has one."""
        return self.game.board_of(self.table.shown_state(), self.table.board_seat())

    def _refresh(self) -> None:
        t = self.table
        v = t.view()
        covered = v["cover"] is not None
        self._cover_box.layout.display = None if covered else "none"
        self._cover_w.value = f"<b>{html.escape(v['cover'] or '')}</b>"
        position = self._shown_position()
        self._view.update(position if not covered else self.game.board.empty_position())
        self._view.mark_last(v["last"][-1] if v["last"] else None)
        self._show_options(v)
        self._show_secret_rows(v)
        self._history_w.value = ("<ol style='margin:0;padding-left:2em'><small>" + "".join(
            f"<li>{html.escape(h['text'])}</li>" for h in v["history"]) + "</small></ol>"
            if v["history"] else "<small>none yet</small>")
        link = self.resume_link()
        if link is not None:
            self._link_w.value = (f"<small><a href='{html.escape(link)}'>Link to this game</a>"
                                  " (bookmark it or share it to take the game up later)</small>")
        turn = f"Game over. {v['turn']}" if v["over"] else v["turn"]
        self._status_text = "\n".join([turn] + ([] if v["over"] else [self._seats_line()])
                                      + v["status"])
        self._status_w.value = "<br>".join(html.escape(line)
                                           for line in self._status_text.splitlines())
        self._say_html(v["message"], v["error"])
        self._undo_b.disabled = not v["can_undo"]
        self._ai_b.disabled = v["over"]

    def _seats_line(self) -> str:
        g = self.game
        return ", ".join(f"{g.player_name(p)}: {_SEAT_LABELS[s]}"
                         for p, s in enumerate(self.table.seats)) + "."

    def _show_options(self, v) -> None:
        """The move list and the playable markers."""
        t = self.table
        simultaneous = v["simultaneous"]
        listed = [] if v["over"] or v["cover"] else t.options()
        labels = t.moves_now()[1]
        options = tuple((labels.get(m, m.text()), m) for m in listed) if not simultaneous else ()
        if tuple(self._moves_w.options) != options:
            self._moves_w.options = options
            self._moves_w.value = options[0][1] if v["narrowed"] and options else None
        self._listed_version = t.version
        self._list_box.layout.display = "none" if simultaneous else None
        self._all_b.layout.display = None if v["narrowed"] else "none"
        self._play_b.disabled = v["over"] or not listed
        self._moves_label.value = html.escape(v["options_title"] or (
            "Legal moves: none, the game is over" if v["over"] else ""))
        mask = 0
        for q in v["playable"]:
            mask |= 1 << q
        self._view.show_playable(mask)
        self._view.clear_marks()
        if v["selected"] is not None:
            self._view.mark(v["selected"], "•")
            position = self._shown_position()
            others = [q for q in v["targets"] if position.occupied >> q & 1]
            if others:
                self._view.mark(others, "+")

    def _show_secret_rows(self, v) -> None:
        old = self._secret_box.children
        if not v["simultaneous"] or v["cover"]:
            if old:
                self._secret_box.children = ()
                _close(old)
            return
        t = self.table
        rows = [widgets.HTML("<b>Secret choice</b>: each human picks in secret; "
                             "the choices are revealed together.")]
        chooser = t.mover
        for p in range(self.game.num_players):
            name = self.game.player_name(p)
            if p in t._secret:
                rows.append(widgets.HTML(f"{html.escape(name)}: ✓ chosen (hidden)"))
                continue
            if t.seats[p] == AI:
                rows.append(widgets.HTML(f"{html.escape(name)}: AI"))
                continue
            if p != chooser and sum(s == HUMAN for s in t.seats) > 1:
                rows.append(widgets.HTML(f"{html.escape(name)}: waiting (hidden)"))
                continue
            moves = t.options() if p == chooser else t.options(p)
            labels = t.moves_now(p)[1]
            dd = widgets.Dropdown(options=[(labels.get(m, m.text()), m) for m in moves],
                                  description=name, layout=widgets.Layout(width="220px"))
            button = widgets.Button(description="Lock in", layout=widgets.Layout(width="auto"))
            button.on_click(lambda b, p=p, dd=dd: self._guard(self._lock_from, p, dd.value))
            rows.append(widgets.HBox([dd, button]))
        self._secret_box.children = tuple(rows)
        _close(old)

    def _lock_from(self, player: int, move) -> None:
        if move is None:
            self.table.message = "Pick a choice first."
            self._say_html(self.table.message, error=True)
            return
        self._act(self.table.choose, move, player)
