"""The built book and the live pages in a real browser (Debian chromium + Playwright).

``make test`` builds the book and installs chromium first; these tests fail,
rather than skip, when either is missing.
"""
from __future__ import annotations

import re

import pytest

from browser import (BOOK, LIVE_EXPLAINED_ERRORS, Watch, browser_context, live_server, require_book, screenshot,
                     static_server)
from shibumi.notation import parse_point
from shibumi.views.three import screen_xy

pytestmark = pytest.mark.browser

#: Folders of the built site that hold assets, not pages.
ASSET_DIRS = {"_static", "_sources", "_images", "widgets", "mathjax", "_sphinx_design_static"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
RENDERER = re.compile(r'"model_name":\s*"RendererModel"')
SCREENSHOTS = {"index.html": "book-index", "book/system/placement.html": "book-system-placement",
               "book/games/spline.html": "book-game-spline"}


def book_pages() -> list[str]:
    book = require_book()
    return sorted(str(p.relative_to(book)) for p in book.rglob("*.html")
                  if not ASSET_DIRS & set(p.relative_to(book).parts[:-1]))


def test_every_page_of_the_book_loads_cleanly():
    pages = book_pages()
    assert len(pages) >= 40, f"only {len(pages)} pages built"
    problems: dict[str, list[str]] = {}
    views = 0
    with static_server(BOOK) as base, browser_context() as context:
        page = context.new_page()
        for name in pages:
            watch = Watch(page)
            page.goto(f"{base}/{name}", wait_until="load")
            source = (BOOK / name).read_text()
            found = []
            if WIDGET_VIEW in source:
                renderers = len(RENDERER.findall(source))
                try:
                    page.wait_for_function(
                        f"document.querySelectorAll('canvas').length >= {renderers}",
                        timeout=30_000)
                except Exception:
                    found.append(f"{renderers} 3D views but only "
                                 f"{page.locator('canvas').count()} canvases")
                views += renderers
            page.wait_for_timeout(300)   # late errors from the widget manager
            if name in SCREENSHOTS:
                canvas = page.locator("canvas")
                if canvas.count():
                    canvas.first.scroll_into_view_if_needed()
                screenshot(page, SCREENSHOTS[name])
            found += [f"console: {e}" for e in watch.unexplained()]
            found += [f"request failed: {f}" for f in watch.failed]
            if found:
                problems[name] = found
            page = _fresh(context, page)
    assert views >= 40, f"only {views} 3D views in the whole book"
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())


def test_a_static_3d_view_turns_without_a_kernel():
    require_book()
    with static_server(BOOK) as base, browser_context() as context:
        page = context.new_page()
        page.goto(f"{base}/book/games/spline.html")
        canvas = page.wait_for_selector("canvas", timeout=30_000)
        canvas.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        before = canvas.screenshot()
        box = canvas.bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(cx, cy)
        page.mouse.down()
        page.mouse.move(cx + 120, cy + 30, steps=8)
        page.mouse.up()
        page.wait_for_timeout(500)
        assert canvas.screenshot() != before, "dragging did not turn the pyramid"


def _fresh(context, page):
    """A new tab for the next page, so listeners never mix pages."""
    page.close()
    return context.new_page()


def test_a_live_link_opens_a_game_that_answers_a_click():
    require_book()
    with live_server() as base, browser_context() as context:
        page = context.new_page()
        page.goto(f"{base}/book/book/games/spline.html")
        link = page.locator("a", has_text="Play Spline live")
        assert link.count() == 1
        watch = Watch(page, LIVE_EXPLAINED_ERRORS)
        link.click()
        canvas = page.wait_for_selector("canvas", timeout=90_000)
        page.wait_for_selector("text=White (Human) to move", timeout=30_000)
        box = canvas.bounding_box()
        page.wait_for_timeout(500)
        before = canvas.screenshot()
        x, y = screen_xy(parse_point("c3.0"), box["width"], box["height"], marker=True)
        page.mouse.dblclick(box["x"] + x, box["y"] + y)
        page.wait_for_selector("text=Black (AI) played", timeout=60_000)
        page.wait_for_timeout(500)
        assert canvas.screenshot() != before, "the 3D view did not change after the move"
        body = page.inner_text("body")
        assert "White played c3" in body
        assert "1. White c3" in body
        page.wait_for_timeout(500)
        screenshot(page, "live-spline")
        assert not watch.unexplained() and not watch.failed, (watch.errors, watch.failed)
        # The page goes; the game does not: opened again, it comes back from storage.
        page.close()
        again = context.new_page()
        again.goto(f"{base}/voila/render/play.ipynb?game=spline")
        again.wait_for_selector("text=1. White c3", timeout=90_000)
        assert "record=Wc3.0" in again.url


#: Live widgets the test puts on one page: each draws a WebGL canvas, and the
#: headless chromium here keeps at most 8 of them alive on a page (a ninth
#: widget of a page was measured to get no canvas).
LIVE_GAMES_PER_PAGE = 6


def test_every_game_has_a_working_live_page():
    """Every game's play widget renders on a live page.  Games share pages, a few
    at a time (one kernel a page), so the cost grows with pages, not games."""
    from shibumi.book import game_module, live_url
    from shibumi.registry import all_games

    require_book()
    games = [cls() for cls in all_games()]
    batches = [games[i:i + LIVE_GAMES_PER_PAGE]
               for i in range(0, len(games), LIVE_GAMES_PER_PAGE)]
    problems = {}
    with live_server() as base, browser_context() as context:
        for batch in batches:
            page = context.new_page()
            watch = Watch(page, LIVE_EXPLAINED_ERRORS)
            names = ",".join(game_module(game) for game in batch)
            page.goto(base + live_url(batch[0]).split("?")[0] + f"?game={names}")
            try:
                page.wait_for_function("n => document.querySelectorAll('canvas').length >= n",
                                       arg=len(batch), timeout=120_000)
            except Exception as error:
                problems[names] = [f"not every widget drew: {error}".splitlines()[0]]
            for game in batch:
                if not page.get_by_text(game.info.summary[:30]).count():
                    problems.setdefault(game_module(game), []).append("no play widget")
            found = [f"console: {e}" for e in watch.unexplained()]
            found += [f"request failed: {f}" for f in watch.failed]
            if found:
                problems.setdefault(names, []).extend(found)
            page.close()
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())
