"""The building blocks of a game chapter, one method per part of the chapter.

>>> ch = Chapter("spline")
>>> ch.game
load('spline')
>>> chapter_path("spline+")
'book/games/spline_plus.md'
>>> print(board_html("spline", record="Wc3"))
<div class="shibumi-board" data-game="spline" data-record="Wc3"><p class="shibumi-board-wait">Loading the board…</p></div>
>>> final = ch.play("c3 c5 e3 e5")
>>> final.position.text()
'..../.BB./.WW./....|.../.../...|../..|.'
"""

from __future__ import annotations

import html
import textwrap

from ..analysis import self_play
from ..game import SIMULTANEOUS, Game, Match, State
from ..notation import point_in
from ..position import Position
from ..registry import load

#: Seed of every statistic the book shows (the same figures at every build).
SEED = 2026
#: Bar colours of the "who wins" plot; other seats are grey.
_BAR_COLOURS = {"White": "#f4f1ea", "Black": "#333333", "Red": "#c0392b", "draw": "#bdc3c7"}
#: Random games behind each chapter's "by the numbers".
GAMES = 1000


def game_module(name_or_game) -> str:
    """The module (and chapter file) name of a game: ``'Spline+'`` -> ``'spline_plus'``."""
    game = name_or_game if isinstance(name_or_game, Game) else load(name_or_game)
    return type(game).__module__.rsplit(".", 1)[-1]


def chapter_path(name_or_game) -> str:
    """Where a game's chapter lives, relative to the repository root."""
    return f"book/games/{game_module(name_or_game)}.md"


def board_html(name_or_game, record: str | None = None, caption: str = "",
               choose: bool = False) -> str:
    """The HTML of a board that plays in the page (``book/_extra/board/board.js``).

    ``record`` starts it from a position reached in play ("play on from
    here"); ``choose`` adds a list of every game (the Play page).
    """
    game = name_or_game if isinstance(name_or_game, Game) else load(name_or_game)
    if record is not None:
        game.new_match(record=record)           # a wrong record fails the build
    attrs = {"data-game": game_module(game), "data-record": record,
             "data-caption": caption or None, "data-choose": "1" if choose else None}
    shown = "".join(f' {k}="{html.escape(v)}"' for k, v in attrs.items() if v is not None)
    return (f'<div class="shibumi-board"{shown}><p class="shibumi-board-wait">'
            'Loading the board…</p></div>')


def _as_position(thing) -> Position:
    if isinstance(thing, Position):
        return thing
    if isinstance(thing, State):
        return thing.position
    if isinstance(thing, Match):
        return thing.state.position
    if isinstance(thing, str):
        return Position(thing)
    raise TypeError(f"expected a Position, State, Match or position text, not {thing!r}")


def resolve_point(position: Position, point) -> int:
    """A point from a number or a name; a bare shared square (``c3``) means its top ball.

    On an empty shared square it means the lower point.
    """
    return point_in(point, position.occupied) if isinstance(point, str) else point


def show_position(position, marks=None, lines=(), highlight=(), caption: str = "",
                  three_d: bool = False, labels: bool = True, show_hidden: bool = False,
                  size: int = 300):
    """Display a position: the top view as SVG, and the 3D pyramid beside it if asked.

    ``marks``, ``lines`` and ``highlight`` are drawn in both views (see
    :func:`shibumi.views.svg.position_svg`); ``caption`` is a line of text
    under the pictures.  Displays and returns nothing, so that a call at the
    end of a cell does not show the pictures twice.
    """
    from IPython.display import HTML, display

    from ..views.svg import position_svg

    position = _as_position(position)
    marks = {resolve_point(position, p): s for p, s in (marks or {}).items()}
    lines = [[resolve_point(position, p) for p in line] for line in lines]
    highlight = [resolve_point(position, p) for p in highlight]
    svg = position_svg(position, marks=marks, lines=lines, highlight=highlight,
                       labels=labels, size=size, show_hidden=show_hidden)
    caption_html = (f'<p class="shibumi-caption"><em>{html.escape(caption)}</em></p>'
                    if caption else "")
    if three_d:
        # The 3D view first, then the picture and caption as plain HTML (not in
        # a widget box), so they show even where widgets cannot; the book's CSS
        # sets the two side by side.
        display(_three_d_view(position, marks, lines, highlight, show_hidden, size).widget)
    display(HTML(f'<div class="shibumi-figure">{svg}{caption_html}</div>'))


def _three_d_view(position, marks, lines, highlight, show_hidden, size):
    from ..views.three import PyramidView

    view = PyramidView(position, width=size, height=size)
    for symbol in "+-x•":
        points = [p for p, s in marks.items() if s == symbol]
        if points:
            view.mark(points, symbol)
    for i, line in enumerate(lines):
        view.draw_path(line, keep=i > 0)
    if highlight:
        view.mark_last(highlight[0])
    view.show_hidden(show_hidden)
    return view


class Chapter:
    """One game's chapter: ``Chapter("spline")`` (a name, alias or ``load`` spec)."""

    def __init__(self, spec: str) -> None:
        self.game = load(spec)
        self.info = self.game.info

    def __repr__(self) -> str:
        return f"Chapter({game_module(self.game)!r})"

    # -- texts ---------------------------------------------------------------
    def card(self):
        """The game's card: designer, year, players, complexity, family, source."""
        from IPython.display import Markdown

        info = self.info
        players = (str(info.min_players) if info.min_players == info.max_players
                   else f"{info.min_players} to {info.max_players}")
        traits = [t for t, on in (("chance", info.chance),
                                  ("hidden information", info.hidden_information),
                                  ("simultaneous choices", info.simultaneous)) if on]
        rows = [("Designer", info.designer), ("Year", info.year), ("Players", players),
                ("Complexity", f"{info.complexity} of 5"), ("Family", info.family),
                ("Source", info.source), ("In short", info.summary),
                ("Also", ", ".join(traits) or "perfect information, no chance"),
                ("Longest game", f"{info.max_length} actions"),
                ("In the engine", f"`load({game_module(self.game)!r})`, "
                                  f"`shibumi play {info.name.lower()}`")]
        if self.game.parameters:
            rows.append(("Options", ", ".join(f"`{k}={v!r}`"
                                              for k, v in self.game.parameters.items())))
        table = "| | |\n|---|---|\n" + "\n".join(f"| **{k}** | {v} |" for k, v in rows)
        return Markdown(table)

    def rules(self):
        """The rules in the project's words, as the engine declares them."""
        from IPython.display import Markdown

        return Markdown(textwrap.dedent(self.game.rules))

    def notes(self):
        """The rules notes: ambiguities in the sources and the choices made."""
        from IPython.display import Markdown

        return Markdown(textwrap.dedent(self.game.notes))

    # -- positions -----------------------------------------------------------
    def play(self, moves: str | list = "", start: State | str | None = None) -> State:
        """The state after playing ``moves`` (space-separated move texts) from the start.

        Every move is checked by the rules; a wrong one raises the engine's
        error, so a chapter cannot show an impossible game.
        """
        state = self.game.parse_state(start) if isinstance(start, str) else start
        match = self.game.new_match(seed=SEED, state=state)
        for text in (moves.split() if isinstance(moves, str) else moves):
            match.push(text)
        return match.state

    def show(self, position, caption: str = "", **options):
        """Display a position (Position, State, Match or text); see :func:`show_position`."""
        show_position(position, caption=caption, **options)

    def start(self, three_d: bool = True, **options):
        """The start position, in 3D and from above (``options`` as for :meth:`show`)."""
        state = self.game.initial_state()
        first = self.game.new_match(seed=0).current_player      # after any opening draws
        if first == SIMULTANEOUS:
            who = "Every player chooses at once, in secret."
        else:
            who = f"{self.game.player_name(first)} moves first."
        show_position(state, three_d=three_d,
                      caption=options.pop("caption", f"The start. {who}"), **options)

    # -- statistics ------------------------------------------------------------
    def numbers(self, games: int = GAMES, seed: int = SEED):
        """Random self-play statistics with a fixed seed: a table and three plots.

        Returns the :class:`~shibumi.analysis.SelfPlayStats`, so a chapter can
        quote its figures.
        """
        from IPython.display import Markdown, display

        stats = self_play(self.game, games=games, seed=seed)
        display(Markdown(self._numbers_table(stats)))
        self._numbers_figure(stats)
        return stats

    def _numbers_table(self, stats) -> str:
        game = self.game
        rows = [("Games played", f"{stats.games} (uniformly random moves, seed {stats.seed})")]
        for p in range(game.num_players):
            rows.append((f"{game.player_name(p)} wins", f"{stats.win_rate(p):.1%}"))
        rows += [("Draws", f"{stats.draws / stats.games:.1%}"),
                 ("Length", f"{min(stats.lengths)} to {max(stats.lengths)} actions, "
                            f"mean {sum(stats.lengths) / stats.games:.1f}"),
                 ("Choices per decision", f"{stats.overall_branching():.1f} on average, "
                                          f"{stats.branching[0][0]} at the first")]
        return "| | |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows)

    def _numbers_figure(self, stats) -> None:
        import matplotlib.pyplot as plt

        game = self.game
        fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(11, 3.1))
        labels = [game.player_name(p) for p in range(game.num_players)] + ["draw"]
        shares = [stats.win_rate(p) for p in range(game.num_players)]
        shares.append(stats.draws / stats.games)
        ax1.bar(labels, shares, edgecolor="#333333",
                color=[_BAR_COLOURS.get(label, "#7f8c8d") for label in labels])
        ax1.set_ylabel("share of games")
        ax1.set_title("Who wins")
        ax2.hist(stats.lengths, bins=range(min(stats.lengths), max(stats.lengths) + 2),
                 color="#5d6d7e", align="left")
        ax2.set_xlabel("actions")
        ax2.set_title("Game length")
        ax3.plot(range(1, len(stats.branching) + 1), stats.mean_branching(), color="#1f618d")
        ax3.set_xlabel("action number")
        ax3.set_ylabel("choices")
        ax3.set_title("Choices per decision")
        fig.suptitle(f"{self.info.name}: {stats.games} random games", y=1.02)
        fig.tight_layout()
        plt.show()
        plt.close(fig)

    # -- play ------------------------------------------------------------------
    def board(self, moves: str = "", caption: str = ""):
        """A board to play on in the page, from the start or after ``moves``
        (space-separated, checked by the rules): "play on from here"."""
        from IPython.display import HTML

        record = None
        if moves:
            match = self.game.new_match(seed=SEED)
            for text in moves.split():
                match.push(text)
            record = match.record()
        return HTML(board_html(self.game, record=record, caption=caption))
