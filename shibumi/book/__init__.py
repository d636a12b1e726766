"""What the rule book's chapters call: game cards, rules, positions, statistics.

A game chapter (``book/games/<module>.md``) starts with::

    from shibumi.book import Chapter
    ch = Chapter("spline")

and then shows ``ch.card()``, ``ch.rules()``, ``ch.start()``, worked examples
with ``ch.show(...)``, ``ch.notes()``, ``ch.numbers()`` and ``ch.board()``.
The texts come from the game's own declaration (``rules``, ``notes``,
``info``), so the book, ``shibumi rules`` and the engine never disagree.

This subpackage needs the book's extras (IPython, ipywidgets, pythreejs,
matplotlib); the engine never imports it.
"""

from .chapter import Chapter, chapter_path, game_module, board_html, resolve_point, show_position

__all__ = ["Chapter", "chapter_path", "game_module", "board_html", "resolve_point",
           "show_position"]
