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
import re
import textwrap
from collections import Counter

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
#: Bar colours of the "solved or not" plot of a solitaire.
_SOLVED_COLOURS = {"solved": "#1f618d", "not solved": "#bdc3c7"}

#: A few words on each option of a game, for the card's "For programmers" box
#: (the rules notes explain them to players without the engine's names).
OPTION_WORDS: dict[str, dict[str, str]] = {
    "imbriqua": {"opening": "pawns placed in all before the first card, in turn: 4 (two "
                            "each, the reading chosen) or 8 (four each)"},
    "sensei": {"mode": "'arashi': a stone slides any distance; 'shizukana': one cell",
               "start": "'standard'; 'variant': the stones of files b and f start on the "
                        "far rank; 'expert': the Arashi-Expert board with five chasms",
               "turn_limit": "a game that lasts this many turns is a draw (1-300)"},
    "spline": {"count_hidden": "balls hidden under level 2 still count in lines; "
                               "False counts only the balls seen from above"},
    "spline_plus": {"cycle": "'superko' forbids any turn that recreates an earlier position, "
                             "'ko' only the position its mover left last time, "
                             "'none' keeps the book's text alone"},
    "spava": {"forbid_losing": "True forbids a move that would lose (a line one short), "
                               "as long as the player has another"},
    "splade": {"winner": "'after': the colour that moves right after the other wins the line; "
                         "'before': the colour right before it"},
    "sploof": {"overpass_cuts": "a contact crossed by two touching balls above breaks a line; "
                                "False only asks for the four balls to be seen"},
    "spaniel": {"overpass_cuts": "a contact crossed by two touching balls above breaks a line; "
                                 "False only asks for the three balls to be seen"},
    "spight": {"visible": "groups join only by contacts seen from above; "
                          "False counts every physical contact",
               "move_limit": "actions without a winner before the game is drawn (at most 200)"},
    "spice": {"tiebreak": "'next' breaks a tie with the second largest groups, and so on; "
                          "'draw' makes any tie in the largest group a draw"},
    "spaiji": {"count_hidden": "True: groups count every ball and every contact, seen or not"},
    "splush": {"cycle": "'change': a turn must change the board; 'ko': no turn may bring back "
                        "the position you left at your previous turn; 'none': neither",
               "levels": "how high entries reach: 1 (level 1 only), 2, or 3 (the apex too)",
               "turn_limit": "turns without a winner before the game is drawn (at most 200)"},
    "spyramid": {"pyramids": "'all' (25 pyramids), 'designer' (the 19 of the designer's "
                             "listing) or 'book' (the 14 upright ones standing on the board)",
                 "rotated": "True adds the 5 pyramids on a square standing on a corner",
                 "move_limit": "actions without a winner before the game is drawn "
                               "(at most 200)"},
    "spire": {"variant": "'book' (the rule book) or 'update' (the designer's later rules: "
                         "no passing)"},
    "spargo": {"cycle": "'superko': no position may repeat with the same player to move; "
                        "'ko': no turn may rebuild the board its mover left last time",
               "supply": "balls of each colour a player has (30 lifts the limit)",
               "turn_limit": "turns after which the game is scored as it stands (at most 800)"},
    "spodd": {"weighted": "True: the diagonals are worth 1, 2, 3, 2 and 1 points"},
    "splink": {"mode": "'bid': an auction decides the roles; 'duel': two games, each "
                       "player the Attractor once"},
    "spin": {"level": "the hand: 1 very easy, 2 easy, 3 medium, 4 hard",
             "hand": "any other hand, as text such as 'W4 B4 R1' (instead of the level)"},
    "spandrel": {"tiebreak": "'order': a tie goes to the tied colour last in turn order "
                             "(Red, then Black); 'recent': to the tied player who played last"},
    "sparks": {"pinning": "'designer': a coal may be taken with one ball resting on it (the "
                          "column above drops); 'french': only a coal with nothing on it"},
    "spawn": {"visible": "three of a colour are connected only through contacts seen from "
                         "above; False counts every contact"},
    "special_cake": {"variant": "the recipe: 1 mint and liquorice, 2 sweets (balls drawn "
                                "from a bag), 3 the poisoned cherry"},
    "speq": {"visible": "True counts only the balls seen from above at the end"},
    "spinout": {"hidden_count": "True lets buried balls count in lines"},
    "spone": {"contacts": "'visible': groups join only through contacts seen from above; "
                          "'all': every contact"},
    "sprenge": {"tiebreak": "'order': a tie goes to the tied player earliest in turn order "
                            "(White, then Black); 'third': a two-way tie goes to the untied "
                            "player (the designer's rule)"},
    "sprout": {"level": "'easy', 'medium' or 'hard': 3, 2 or 1 trades for the whole game"},
    "sphlag": {"balanced": "True makes White's first ball touch White's own flag",
               "turn_limit": "turns before the game is scored as if both had passed "
                             "(at most 200)"},
    "spack": {"turn_limit": "turns before the game ends and the hands are compared"},
    "spoff": {"visible": "a pair is connected only through contacts seen from above; False "
                         "counts every physical contact"},
    "spruit": {"start": "the starting position (any balanced layout the text allows)",
               "must_push": "True: a ball enters only by pushing; False also lets it come "
                            "in onto an empty point"},
}



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


def _inline(text) -> str:
    """Plain text, or Markdown with `code` and *emphasis*, as HTML."""
    out = html.escape(str(text), quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"(?<![\w*])\*([^*]+)\*(?![\w*])", r"<em>\1</em>", out)


def facts_html(rows, css_class: str = "shibumi-numbers") -> str:
    """A two-column table of (heading, value) rows, headings as row headers.

    >>> print(facts_html([("Games played", 10)]))
    <table class="table shibumi-numbers"><tbody>
    <tr><th scope="row">Games played</th><td>10</td></tr>
    </tbody></table>
    """
    body = "\n".join(f'<tr><th scope="row">{_inline(k)}</th><td>{_inline(v)}</td></tr>'
                      for k, v in rows)
    return f'<table class="table {css_class}"><tbody>\n{body}\n</tbody></table>'


def _number(x) -> str:
    """A score as text: ``22.0`` -> ``'22'``, ``2.5`` -> ``'2.5'``."""
    return f"{x:g}"


def _as_position(thing) -> Position:
    if isinstance(thing, Position) or getattr(thing, "grid", None) is not None:
        return thing        # the pyramid's, or another board type's (a grid's)
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
    if getattr(position, "grid", None) is not None:
        return position.grid.as_point(point)
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
    from ..views.three import view_of

    view = view_of(position, width=size, height=size)
    for symbol in "+-x•":
        points = [p for p, s in marks.items() if s == symbol]
        if points:
            view.mark(points, symbol)
    for i, line in enumerate(lines):
        view.draw_path(line, keep=i > 0)
    if highlight:
        view.mark_last(highlight)
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
    def card(self) -> None:
        """Display the game's card: designer, year, players, complexity, family, source.

        It shows itself wherever it is called in a cell (and returns None), and
        ends with a folded box "For programmers" (:meth:`programmers_html`).
        """
        from IPython.display import HTML, display

        display(HTML(self.card_html()))

    def card_rows(self) -> list[tuple[str, str]]:
        """The card's rows, for players: (heading, value)."""
        info = self.info
        players = (str(info.min_players) if info.min_players == info.max_players
                   else f"{info.min_players} to {info.max_players}")
        if info.max_players == 1:
            players += " (a solitaire)"
        traits = [t for t, on in (("chance", info.chance),
                                  ("hidden information", info.hidden_information),
                                  ("simultaneous choices", info.simultaneous)) if on]
        return [("Designer", info.designer), ("Year", info.year), ("Players", players),
                ("Complexity", f"{info.complexity} of 5"), ("Family", info.family),
                ("Source", info.source), ("In short", info.summary),
                ("Also", ", ".join(traits) or "perfect information, no chance"),
                ("Longest game", f"{info.max_length} actions")]

    def card_html(self) -> str:
        """The card as HTML: a key/value table, then the programmers' box.

        >>> card = Chapter("spline").card_html()
        >>> '<th scope="row">Players</th><td>2</td>' in card, "load(" in card.split("<details")[0]
        (True, False)
        """
        return (facts_html(self.card_rows(), "shibumi-card")
                + self.programmers_html())

    def programmers_html(self) -> str:
        """The folded box "For programmers": the Python name, the terminal command, options.

        >>> print(Chapter("spline").programmers_html())
        <details class="shibumi-programmers"><summary>For programmers</summary>
        <ul>
        <li>In Python: <code>load('spline')</code></li>
        <li>In a terminal: <code>shibumi play spline</code></li>
        <li>Option, with its default: <code>count_hidden=True</code>: balls hidden under level 2 still count in lines; False counts only the balls seen from above</li>
        </ul></details>
        """
        module = game_module(self.game)
        items = [f"In Python: <code>load({module!r})</code>",
                 f"In a terminal: <code>shibumi play {html.escape(module)}</code>"]
        words = OPTION_WORDS.get(module, {})
        options = []
        for key, default in self.game.parameters.items():
            text = f"<code>{html.escape(f'{key}={default!r}')}</code>"
            if key == "players":
                text += (f": the number of players, {self.info.min_players} to "
                         f"{self.info.max_players}")
            elif key in words:
                text += f": {html.escape(words[key], quote=False)}"
            options.append(text)
        if len(options) == 1:
            items.append(f"Option, with its default: {options[0]}")
        elif options:
            items.append("Options, with their defaults:<ul>"
                         + "".join(f"<li>{o}</li>" for o in options) + "</ul>")
        body = "\n".join(f"<li>{i}</li>" for i in items)
        return ('<details class="shibumi-programmers"><summary>For programmers</summary>\n'
                f"<ul>\n{body}\n</ul></details>")

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
        if isinstance(position, str):
            position = self.game.board.parse_position(position)
        show_position(position, caption=caption, **options)

    def start(self, three_d: bool = True, state=None, **options):
        """The start position, in 3D and from above (``options`` as for :meth:`show`).

        The default caption says who moves first; for a solitaire, what the
        puzzle starts from.  ``state``: a start of the chapter's choosing, e.g.
        a pyramid dealt by chance (by default the game's initial state).
        """
        state = self.game.initial_state() if state is None else state
        if self.game.num_players == 1:
            who = ("The puzzle starts from an empty board." if state.position.count() == 0
                   else "The puzzle starts from this position.")
        else:
            first = self.game.new_match(seed=0).current_player      # after any opening draws
            if first == SIMULTANEOUS:
                who = "The start. Every player chooses at once, in secret."
            else:
                who = f"The start. {self.game.player_name(first)} moves first."
        show_position(state, three_d=three_d, caption=options.pop("caption", who), **options)

    # -- statistics ------------------------------------------------------------
    def numbers(self, games: int = GAMES, seed: int = SEED):
        """Random self-play statistics with a fixed seed: a table and a figure.

        What is shown fits the game: who wins for two or more players (every
        seat), whether the puzzle was solved and the scores for a solitaire;
        a game whose length never varies says so in words instead of a
        histogram of one bar.  Returns the :class:`~shibumi.analysis.SelfPlayStats`,
        so a chapter can quote its figures.
        """
        from IPython.display import HTML, display

        stats = self_play(self.game, games=games, seed=seed)
        display(HTML(self._numbers_table(stats)))
        self._numbers_figure(stats)
        return stats

    def facts(self, rows) -> None:
        """Display a two-column table of (heading, value) rows, like the numbers table."""
        from IPython.display import HTML, display

        display(HTML(facts_html(rows)))

    # What the statistics show, decided from the game and the games played.
    def _solitaire(self) -> bool:
        return self.game.num_players == 1

    @staticmethod
    def _scores(stats) -> list[float] | None:
        """The solitaire's scores (``outcome.scores[0]``), if its outcomes hold any."""
        scores = stats.player_scores(0)
        return scores if scores and len(scores) == stats.games else None

    def _shows_solved(self, stats) -> bool:
        """Whether "solved or not" means something: not when every game ends with a score
        and a "win" (a solitaire with no losing, such as Spuzzle)."""
        return not (self._scores(stats) and stats.draws == 0)

    def _shows_lengths(self, stats) -> bool:
        """Whether lengths say more than the scores (a placement solitaire's score is its
        length)."""
        scores = self._scores(stats)
        return not (self._solitaire() and scores and
                    [float(n) for n in stats.lengths] == scores)

    def _numbers_table(self, stats) -> str:
        game = self.game
        rows = [("Games played", f"{stats.games} (uniformly random moves, seed {stats.seed})")]
        if self._solitaire():
            scores = self._scores(stats)
            if self._shows_solved(stats):
                solved = stats.win_rate(0)
                rows += [("Solved", f"{solved:.1%}"), ("Not solved", f"{1 - solved:.1%}")]
            if scores:
                low, high = _number(min(scores)), _number(max(scores))
                rows.append(("Score", f"always {low}" if low == high else
                             f"{low} to {high}, mean {sum(scores) / len(scores):.1f}"))
        else:
            for p in range(game.num_players):
                rows.append((f"{game.player_name(p)} wins", f"{stats.win_rate(p):.1%}"))
            rows.append(("Draws", f"{stats.draws / stats.games:.1%}"))
        if stats.fixed_length is not None:
            rows.append(("Length", f"Every game lasts exactly {stats.fixed_length} actions"))
        elif self._shows_lengths(stats):
            rows.append(("Length", f"{min(stats.lengths)} to {max(stats.lengths)} actions, "
                                   f"mean {sum(stats.lengths) / stats.games:.1f}"))
        rows.append(("Choices per decision", f"{stats.overall_branching():.1f} on average, "
                                             f"{stats.branching[0][0]} at the first"))
        searched = self._first_player_searched()
        if searched is not None:
            rows.append(searched)
        return facts_html(rows, "shibumi-numbers")

    def _first_player_searched(self):
        """The row on the first player when both sides search (the stored table of
        :mod:`shibumi.book.strong_play`), for the game with its default options."""
        from .strong_play import first_player_row

        if self.game.params != load(self.info.name).params:
            return None
        return first_player_row(self.info.name)

    def _numbers_figure(self, stats) -> None:
        import matplotlib.pyplot as plt

        game = self.game
        panels = []
        if not self._solitaire():
            panels.append(self._plot_winners)
        elif self._shows_solved(stats):
            panels.append(self._plot_solved)
        if self._solitaire() and self._scores(stats):
            panels.append(self._plot_scores)
        if stats.fixed_length is None and self._shows_lengths(stats):
            panels.append(self._plot_lengths)
        panels.append(self._plot_choices)
        fig, axes = plt.subplots(1, len(panels), figsize=(3.7 * len(panels), 3.1),
                                 squeeze=False)
        for panel, ax in zip(panels, axes[0]):
            panel(ax, stats)
        fig.suptitle(f"{self.info.name}: {stats.games} random games", y=1.02)
        fig.tight_layout()
        plt.show()
        plt.close(fig)

    def _plot_winners(self, ax, stats) -> None:
        game = self.game
        labels = [game.player_name(p) for p in range(game.num_players)] + ["draw"]
        shares = [stats.win_rate(p) for p in range(game.num_players)]
        shares.append(stats.draws / stats.games)
        ax.bar(labels, shares, edgecolor="#333333",
               color=[_BAR_COLOURS.get(label, "#7f8c8d") for label in labels])
        ax.set_ylabel("share of games")
        ax.set_title("Who wins")

    def _plot_solved(self, ax, stats) -> None:
        solved = stats.win_rate(0)
        labels = list(_SOLVED_COLOURS)
        ax.bar(labels, [solved, 1 - solved], edgecolor="#333333",
               color=list(_SOLVED_COLOURS.values()))
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of games")
        ax.set_title("Solved or not")

    def _plot_scores(self, ax, stats) -> None:
        spread = Counter(self._scores(stats))
        values = sorted(spread)
        ax.bar(values, [spread[v] / stats.games for v in values], color="#5d6d7e")
        ax.set_xlabel("score")
        ax.set_ylabel("share of games")
        ax.set_title("Score")

    def _plot_lengths(self, ax, stats) -> None:
        ax.hist(stats.lengths, bins=range(min(stats.lengths), max(stats.lengths) + 2),
                color="#5d6d7e", align="left")
        ax.set_xlabel("actions")
        ax.set_title("Game length")

    def _plot_choices(self, ax, stats) -> None:
        ax.plot(range(1, len(stats.branching) + 1), stats.mean_branching(), color="#1f618d",
                marker="o" if len(stats.branching) == 1 else None)
        ax.set_xlabel("action number")
        ax.set_ylabel("choices")
        ax.set_title("Choices per decision")

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
