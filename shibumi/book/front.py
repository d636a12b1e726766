"""The book's front door: the table of every game, built from the registry.

Each row says what a newcomer wants to know before choosing a game: family,
players, complexity, what happens on a turn (the kinds of moves, found by
playing a few random games, not written by hand), chance, secrets, the source,
and whether the game is solved in this project.  ``book/_static/shibumi-tables.js``
makes the table sort and filter in the page.

>>> row = game_rows()[0]
>>> row["name"], row["family"], row["players"], row["solved"]
('Spline', 'N-in-a-row', '2', 'yes')
>>> 'place' in row["mechanisms"]
True
"""

from __future__ import annotations

import html
import importlib
import random

from ..game import SIMULTANEOUS
from ..notation import CHOOSE, ENTER, MOVE, PASS, PLACE, REMOVE, SLIDE
from ..registry import all_games

__all__ = ["game_rows", "games_table"]

#: What a move kind is called in the table.
MOVE_WORDS = {PLACE: "place", REMOVE: "remove", MOVE: "move a ball", SLIDE: "slide",
              ENTER: "push in", CHOOSE: "choose", PASS: "pass"}
#: Games solved in this project, and the module of shibumi.maths that solves each.
SOLVERS = {"Spline": "solve", "Span": "span_solve", "Splastwo": "splastwo", "Spuzzle": "spuzzle"}
#: Random games played per game to see which kinds of moves occur.
SAMPLE_GAMES = 12


def _move_kinds(game, games: int = SAMPLE_GAMES, seed: int = 7) -> list[str]:
    """The kinds of moves seen in a few random games, in MOVE_WORDS order."""
    seen, rng = set(), random.Random(seed)
    for _ in range(games):
        match = game.new_match(seed=rng.getrandbits(32))
        while not match.is_over():
            if match.current_player == SIMULTANEOUS:
                moves = [rng.choice(game.legal_moves(match.state, p))
                         for p in range(game.num_players)]
                seen.update(m.kind for m in moves)
                match.push_joint(moves)
            else:
                move = rng.choice(match.legal_moves())
                seen.add(move.kind)
                match.push(move)
    return [word for kind, word in MOVE_WORDS.items() if kind in seen]


def _solved(name: str) -> str:
    module = SOLVERS.get(name)
    if module is None:
        return ""
    importlib.import_module(f"shibumi.maths.{module}")      # the solver is really there
    return "yes"


def game_rows() -> list[dict]:
    """One row per registered game, in the catalogue's order."""
    rows = []
    for cls in all_games():
        game, info = cls(), cls.info
        traits = [t for t, on in (("chance", info.chance), ("secrets", info.hidden_information),
                                  ("secret choices", info.simultaneous),
                                  ("several sets", info.boards > 1)) if on]
        players = (str(info.min_players) if info.min_players == info.max_players
                   else f"{info.min_players}-{info.max_players}")
        rows.append({"name": info.name, "module": cls.__module__.rsplit(".", 1)[-1],
                     "family": info.family, "players": players,
                     "complexity": info.complexity,
                     "mechanisms": ", ".join(_move_kinds(game) + traits),
                     "designer": info.designer, "year": info.year,
                     "source": info.source, "summary": info.summary,
                     "solved": _solved(info.name)})
    return rows


def games_table(prefix: str = "games/") -> str:
    """The HTML table of every game; chapter links start with ``prefix``."""
    head = ("Game", "Family", "Players", "Complexity", "On a turn", "Designer",
            "Source", "Solved")
    out = ['<table class="shibumi-games">', "<thead><tr>"]
    out += [f'<th scope="col">{h}</th>' for h in head]
    out.append("</tr></thead><tbody>")
    for row in game_rows():
        chapter = f"{prefix}{row['module']}.html"
        cells = (f'<a href="{chapter}" title="{html.escape(row["summary"])}">'
                 f'{html.escape(row["name"])}</a> · <a href="{chapter}#play" '
                 f'class="shibumi-play-link">play</a>',
                 row["family"], row["players"], "●" * row["complexity"],
                 row["mechanisms"], f'{row["designer"]} ({row["year"]})', row["source"],
                 row["solved"])
        sort_keys = (row["name"], row["family"], row["players"], row["complexity"],
                     row["mechanisms"], row["designer"], row["source"], row["solved"])
        out.append("<tr>" + "".join(
            f'<td data-sort="{html.escape(str(key))}">{cell if i == 0 else html.escape(str(cell))}'
            f"</td>" for i, (cell, key) in enumerate(zip(cells, sort_keys))) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)
