"""The rule book's structure: a chapter for every registered game, with every part."""
from __future__ import annotations

import pathlib
import re

import pytest

from shibumi.book import Chapter, board_html, chapter_path, game_module
from shibumi.registry import all_games

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOC = (ROOT / "_toc.yml").read_text()
GAMES = [cls() for cls in all_games()]
#: Each game chapter's parts, in order: heading, and the call that fills it.
PARTS = [("## Rules", "ch.rules()"), ("## The start", "ch.start("),
         ("## Worked examples", "ch.show("), ("## Strategy", None),
         ("## Rules notes", "ch.notes()"), ("## By the numbers", None),
         ("## Play", "ch.board()")]


def toc_files() -> list[str]:
    return re.findall(r"file:\s*(\S+)", TOC)


def test_every_file_in_the_toc_exists():
    for name in toc_files():
        assert (ROOT / f"{name}.md").is_file(), f"_toc.yml lists {name}, which is missing"


def test_every_notebook_is_in_the_book():
    listed = set(toc_files())
    for path in (ROOT / "notebooks").glob("*.md"):
        assert f"notebooks/{path.stem}" in listed, f"{path.name} is not in _toc.yml"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: game_module(g))
def test_every_registered_game_has_a_complete_chapter(game):
    path = ROOT / chapter_path(game)
    assert path.is_file(), f"{game.info.name} has no chapter: write {chapter_path(game)}"
    text = path.read_text()
    assert text.startswith("---\njupytext:"), "chapters are MyST Markdown notebooks"
    assert re.search(rf"^# {re.escape(game.info.name)}\s*$", text, re.M)
    assert "ch.card()" in text
    position = 0
    for heading, call in PARTS:
        found = text.find(f"\n{heading}\n", position)
        assert found >= 0, f"{path.name}: no '{heading}' section after the previous part"
        position = found
        if call:
            section = text[found:text.find("\n## ", found + 1) % (len(text) + 1)]
            assert call in section, f"{path.name}: '{heading}' does not call {call}"
    examples = text[text.find("\n## Worked examples\n"):text.find("\n## Strategy\n")]
    assert examples.count("\n### ") >= 2, f"{path.name}: fewer than two worked examples"
    assert "three_d=True" in examples, f"{path.name}: no 3D view among the examples"
    numbers = text[text.find("\n## By the numbers\n"):text.find("\n## Play\n")]
    assert "self_play" in numbers or "ch.numbers(" in numbers


@pytest.mark.parametrize("game", GAMES, ids=lambda g: game_module(g))
def test_every_chapter_is_under_its_familys_part(game):
    part = TOC.find(f'the games: {game.info.family}"')
    if part < 0:        # games on boards of their own have parts of their own
        part = TOC.find(f'caption: "{game.info.family} games"')
    assert part >= 0, f"no part for the family {game.info.family} in _toc.yml"
    next_part = TOC.find("- caption:", part)
    section = TOC[part:next_part if next_part > 0 else len(TOC)]
    assert f"file: book/games/{game_module(game)}\n" in section


def test_chapter_names_and_links():
    assert chapter_path("spline+") == "book/games/spline_plus.md"
    html = board_html("splade", record="a1")
    assert 'class="shibumi-board"' in html and 'data-game="splade"' in html
    assert 'data-record="Wa1"' not in html and 'data-record="a1"' in html
    with pytest.raises(Exception):
        board_html("spline", record="a1 a1")             # a wrong record fails the build


def test_card_rules_and_notes_come_from_the_game():
    ch = Chapter("spinimax")
    assert ch.card() is None                     # the card displays itself
    card = ch.card_html()
    for value in (ch.info.designer, ch.info.year, '<th scope="row">Players</th><td>3</td>',
                  ch.info.family):
        assert value in card
    assert ch.rules().data.strip() == ch.game.rules.strip()
    assert ch.notes().data.strip() == ch.game.notes.strip()


def test_play_checks_every_move():
    from shibumi.errors import IllegalMoveError

    ch = Chapter("spline")
    assert ch.play("c3 e5").position.count() == 2
    with pytest.raises(IllegalMoveError):
        ch.play("c3 c3.0")
