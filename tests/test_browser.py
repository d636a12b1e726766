"""The built book in a real browser (Debian chromium + Playwright); its boards: test_board.py.

``make test`` builds the book and installs chromium first; these tests fail,
rather than skip, when either is missing.
"""
from __future__ import annotations

import re

import pytest

from browser import BOOK, ROOT, Watch, browser_context, require_book, screenshot, static_server

pytestmark = pytest.mark.browser

#: Folders of the built site that hold assets, not pages.
ASSET_DIRS = {"_static", "_sources", "_images", "widgets", "mathjax", "_sphinx_design_static",
              "board", "pyodide"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
RENDERER = re.compile(r'"model_name":\s*"RendererModel"')
SCREENSHOTS = {"index.html": "book-index", "book/system/placement.html": "book-system-placement",
               "book/games/spline.html": "book-game-spline"}


#: A worker that never answers, in the place where the page's loader looks for the
#: engine it has started (book/_static/shibumi-boards.js): the boards wait quietly.
IDLE_ENGINE = ("window.shibumiWorker = {postMessage() {}, addEventListener() {}, "
               "set onmessage(f) {}, set onerror(f) {}};")


def book_pages() -> list[str]:
    book = require_book()
    return sorted(str(p.relative_to(book)) for p in book.rglob("*.html")
                  if not ASSET_DIRS & set(p.relative_to(book).parts[:-1]))


def sample_pages() -> list[str]:
    """Every page but the game chapters, and the first and last chapters of each part.

    The chapters are made by the same helpers (card, views, figures, board), so a
    chapter per part finds what breaks them all; the rendered HTML of every chapter
    is checked without a browser in test_reading.py, and every page in a browser
    by the slow test below.
    """
    pages = book_pages()
    toc = (ROOT / "_toc.yml").read_text()
    firsts = set()
    for part in toc.split("- caption:")[1:]:
        files = [line.split("file:")[1].strip() for line in part.splitlines() if "file:" in line]
        if files and files[0].startswith("book/games/"):
            firsts |= {files[0] + ".html", files[-1] + ".html"}
    return [p for p in pages if not p.startswith("book/games/") or p in firsts]


def test_the_pages_of_the_book_load_cleanly():
    _check_pages(sample_pages())


@pytest.mark.slow
def test_every_page_of_the_book_loads_cleanly():
    _check_pages(book_pages())


def _check_pages(pages):
    assert len(pages) >= 20, f"only {len(pages)} pages to check"
    problems: dict[str, list[str]] = {}
    views = 0
    with static_server(BOOK) as base, browser_context() as context:
        # The boards' engine (Pyodide, seconds of CPU a page) is tested in test_board.py;
        # here a stand-in worker keeps each page's loader from starting one.
        context.add_init_script(IDLE_ENGINE)
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
    assert views >= len(pages), f"only {views} 3D views in {len(pages)} pages"
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
