"""The book as a reader meets it, checked on the rendered pages.

Static checks read the built HTML of every page; the browser checks open the
front page, a page of Part I and chapters of three families at desktop width,
measure what a reader sees (figure pairs side by side, the games table sorting
and filtering) and keep screenshots.
"""
from __future__ import annotations

import re

import pytest

from browser import BOOK, Watch, browser_context, require_book, screenshot, static_server
from shibumi.book import game_module
from shibumi.registry import all_games

CHAPTERS = {game_module(cls()): cls for cls in all_games()}


def html_of(path: str) -> str:
    return (require_book() / path).read_text()


@pytest.mark.parametrize("module", sorted(CHAPTERS))
def test_every_chapter_has_one_card_and_a_board(module):
    page = html_of(f"book/games/{module}.html")
    assert len(re.findall(r'<table class="[^"]*\bshibumi-card\b', page)) == 1, "no card, or two"
    assert page.count('class="shibumi-board"') >= 1
    card = page[page.index('shibumi-card"'):]
    card = card[:card.index("</table>")]
    assert "load(" not in card and "shibumi play" not in card   # engine names: programmers box
    assert 'class="shibumi-programmers"' in page


def test_no_table_of_the_book_has_an_empty_header_row():
    empty = re.compile(r"<thead>\s*<tr[^>]*>(\s*<th[^>]*>\s*</th>)+\s*</tr>\s*</thead>")
    bad = [str(p.relative_to(BOOK)) for p in require_book().rglob("*.html")
           if empty.search(p.read_text())]
    assert not bad, bad


def test_fixed_length_games_and_solitaires_get_fitting_statistics():
    spinimax = html_of("book/games/spinimax.html")
    assert re.search(r"Every game lasts exactly 16 actions", spinimax)
    assert "16 to 16 actions" not in spinimax
    spuzzle = html_of("book/games/spuzzle.html")
    assert "Player moves first" not in spuzzle and "against the AI or a friend" not in spuzzle


@pytest.mark.browser
def test_the_front_page_lists_sorts_and_filters_every_game():
    require_book()
    with static_server(BOOK) as base, browser_context(viewport=(1400, 900)) as context:
        page = context.new_page()
        watch = Watch(page)
        page.goto(f"{base}/book/intro.html")
        table = page.locator("table.shibumi-games")
        rows = table.locator("tbody tr")
        assert rows.count() == len(CHAPTERS)
        assert page.locator("img, canvas, svg").count() >= 1          # a picture of the set
        first_evening = page.locator("text=Start here").count()
        assert first_evening
        page.locator(".shibumi-games-bar input").fill("chance")
        shown = [r for r in range(rows.count()) if rows.nth(r).is_visible()]
        assert 0 < len(shown) < len(CHAPTERS)
        page.locator(".shibumi-games-bar input").fill("")
        table.locator("th", has_text="Players").click()
        players = [rows.nth(r).locator("td").nth(2).inner_text() for r in range(rows.count())]
        assert players[0] == "1" and players == sorted(players, key=lambda p: int(p[0]))
        link = rows.nth(0).locator("a").first.get_attribute("href")
        assert link.startswith("games/") and link.endswith(".html")
        screenshot(page, "reading-front-page")
        assert not watch.errors and not watch.failed, (watch.errors, watch.failed)


@pytest.mark.browser
@pytest.mark.parametrize("path, shot", [
    ("book/system/placement.html", "reading-part-1"),
    ("book/games/spline.html", "reading-spline"),
    ("book/games/span.html", "reading-span"),
    ("book/games/spargo.html", "reading-spargo"),
])
def test_figure_pairs_stand_side_by_side_at_desktop_width(path, shot):
    require_book()
    with static_server(BOOK) as base, browser_context(viewport=(1400, 900)) as context:
        page = context.new_page()
        watch = Watch(page)
        page.goto(f"{base}/{path}")
        page.wait_for_timeout(1500)
        pairs = page.evaluate("""() => {
            const out = [];
            for (const figure of document.querySelectorAll(".shibumi-figure")) {
                const output = figure.closest(".cell_output");
                const canvas = output && output.querySelector("canvas");
                if (!canvas) continue;
                const a = canvas.getBoundingClientRect(), b = figure.getBoundingClientRect();
                out.push({side: b.left >= a.right - 2 && b.top < a.bottom,
                          canvas: [a.left, a.top, a.width], figure: [b.left, b.top]});
            }
            return out;
        }""")
        stacked = [p for p in pairs if not p["side"]]
        assert not stacked, f"{len(stacked)} of {len(pairs)} pairs stack: {stacked[:3]}"
        screenshot(page, shot)
        assert not watch.errors and not watch.failed, (watch.errors, watch.failed)
