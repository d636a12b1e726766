"""The boards in the book's pages, played in a real browser with no server behind them.

The built book (``_build/html``) is served by the static server of ``make
serve``; Debian chromium runs the pages, whose boards run the engine in a Web
Worker under Pyodide.  The tests click the canvas where the board says a point
is drawn (``board.project``), as a reader would.  ``make test`` builds the book
and installs chromium first; these tests fail, rather than skip, without them.
"""
from __future__ import annotations

import random
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from browser import ROOT, Watch, browser_context, free_port, require_book, screenshot, static_server
from shibumi.book import game_module
from shibumi.registry import all_games

pytestmark = pytest.mark.browser

#: A board is ready when Pyodide and the engine have started (about 3-4 s here).
READY_MS = 90_000


@pytest.fixture(scope="module")
def site():
    book = require_book()
    with static_server(book) as base, browser_context() as context:
        yield base, context


def open_board(context, url: str, which: int = -1, keep_saved: bool = False):
    """A page at url, its console watched, and the board number `which` ready.
    Games saved in the browser by earlier tests are forgotten unless ``keep_saved``."""
    page = context.new_page()
    if not keep_saved:                 # any page of the site will do: a style sheet
        page.goto(url.split("/book/")[0] + "/board/board.css")
        page.evaluate("localStorage.clear()")
    watch = Watch(page)
    page.goto(url)
    page.wait_for_function("window.shibumiBoards && window.shibumiBoards.length > 0",
                           timeout=READY_MS)
    handle = page.evaluate_handle(f"window.shibumiBoards.at({which})")
    page.evaluate("b => b.ready", handle)
    page.evaluate("b => b.element.scrollIntoView({block: 'center'})", handle)
    return page, watch, handle


def view(page, board) -> dict:
    return page.evaluate("b => b.view", board)


def idle(page, board) -> dict:
    page.evaluate("b => b.idle()", board)
    return view(page, board)


def click_point(page, board, point: int) -> None:
    """A real mouse click where the board draws the point (ball or marker)."""
    xy = page.evaluate("([b, p]) => b.project(p)", [board, point])
    page.mouse.click(xy["x"], xy["y"])


def parts(page, board, selector: str) -> list:
    """Elements of this board's panel or cover (a page may hold several boards)."""
    element = page.evaluate_handle("b => b.element", board)
    return element.query_selector_all(selector)


def finish(page, watch, shot: str | None = None) -> None:
    """Keep a screenshot, check the console and the requests, close the page."""
    if shot:
        screenshot(page, shot)
    assert not watch.errors and not watch.failed, (watch.errors, watch.failed)
    page.close()


def send(page, board, op: str, **args) -> dict:
    page.evaluate("([b, op, args]) => b.send(op, args)", [board, op, args])
    return idle(page, board)


def play_by_clicks(page, board, rng, max_clicks: int = 400, enough=None) -> dict:
    """Click clickable points (and, after a selection, its targets) until the end
    (or until ``enough(view)``); a choice no point can make (a colour, a pass) is
    taken from the move list."""
    v = idle(page, board)
    for _ in range(max_clicks):
        if v["over"] or (enough is not None and enough(v)):
            return v
        if v["cover"]:
            parts(page, board, ".sb-cover-button")[0].click()
        elif v["selected"] is not None and v["targets"]:
            click_point(page, board, rng.choice(v["targets"]))
        elif v["narrowed"] or not v["clickable"]:
            rng.choice(parts(page, board, ".sb-option-list .sb-option")).click()
        else:
            click_point(page, board, rng.choice(v["clickable"]))
        before = v["version"]
        page.wait_for_function("([b, n]) => b.view.version !== n", arg=[board, before],
                               timeout=60_000)
        v = idle(page, board)
    return v


def test_a_whole_game_of_spline_against_the_ai_by_clicks(site):
    base, context = site
    page, watch, board = open_board(context, f"{base}/book/games/spline.html")
    assert view(page, board)["turn"] == "White (you) to move."
    send(page, board, "strength", level="easy")
    end = play_by_clicks(page, board, random.Random(1))
    assert end["over"] and "won" in end["result"]
    assert end["history"][0]["number"] == 1 and end["history"][0]["text"].startswith("White ")
    assert len(end["winning"]) >= 2                         # the winning line is drawn
    assert end["result"] in parts(page, board, ".sb-panel")[0].inner_text()
    finish(page, watch, "board-spline-end")


def test_a_click_while_the_ai_thinks_changes_nothing(site):
    base, context = site
    page, watch, board = open_board(context, f"{base}/book/games/spline.html")
    send(page, board, "strength", level="strong")           # three seconds a move
    v = view(page, board)
    first, second = v["playable"][0], v["playable"][-1]
    click_point(page, board, first)
    page.wait_for_function("b => b.busy", arg=board, timeout=10_000)
    click_point(page, board, second)                          # while the AI thinks
    page.wait_for_timeout(200)
    click_point(page, board, second)
    v = idle(page, board)
    whites = [b["point"] for b in v["balls"] if b["colour"] == "W"]
    assert whites == [first] and len(v["history"]) == 2, v["history"]
    finish(page, watch)


def test_a_game_comes_back_when_its_page_is_opened_again(site):
    base, context = site
    url = f"{base}/book/games/spline.html"
    page, watch, board = open_board(context, url)
    v = view(page, board)
    click_point(page, board, v["playable"][3])
    played = idle(page, board)
    assert len(played["history"]) == 2
    page.close()
    page, watch, board = open_board(context, url, keep_saved=True)
    again = view(page, board)
    assert again["record"] == played["record"] and again["history"] == played["history"]
    # Spline is solved: the board shows what every move leads to
    parts(page, board, "button[aria-label='Show the exact value of every move']")[0].click()
    page.wait_for_function("b => b.view.values !== null", arg=board, timeout=60_000)
    values = idle(page, board)["values"]
    assert len(values) == len(again["options"])
    assert all(text.startswith(("wins", "loses")) for text in values.values())
    finish(page, watch)


def test_splush_by_clicks_through_removals_and_entries(site):
    base, context = site
    page, watch, board = open_board(context, f"{base}/book/games/splush.html")
    send(page, board, "strength", level="beginner")

    def white(view):
        return " ".join(h["text"] for h in view["history"] if h["text"].startswith("White"))

    def both_kinds(view):             # White has entered and removed balls, by clicks
        return "+" in white(view) and " x" in white(view) and len(view["history"]) >= 30

    end = play_by_clicks(page, board, random.Random(3), enough=both_kinds)
    assert end["over"] or both_kinds(end), white(end)
    finish(page, watch, "board-splush-end")


def test_a_spuzzle_solitaire_by_clicks(site):
    base, context = site
    page, watch, board = open_board(context, f"{base}/book/games/spuzzle.html")
    v = view(page, board)
    assert v["turn"] == "Your move." and v["game"]["solitaire"]
    end = play_by_clicks(page, board, random.Random(5))
    assert end["over"] and ("Solved" in end["result"] or "Not solved" in end["result"])
    finish(page, watch)


def test_hidden_hands_are_covered_between_two_humans(site):
    base, context = site
    page, watch, board = open_board(context, f"{base}/book/games/spanic.html")
    send(page, board, "seat", player=1, kind="human")
    v = send(page, board, "new")
    assert v["cover"] and "Pass the device to Player 1" in v["cover"]
    assert v["balls"] == [] and v["status"] == [] and v["options"] == []
    assert parts(page, board, ".sb-cover")[0].is_visible()
    parts(page, board, ".sb-cover-button")[0].click()
    v = idle(page, board)
    hands = " ".join(v["status"])
    assert v["cover"] is None and "Player 2 ??" in hands and "Player 1 ?" not in hands
    assert not parts(page, board, ".sb-record")[0].is_visible()   # it holds the deal
    click_point(page, board, v["clickable"][0])
    v = idle(page, board)
    if not v["over"] and v["turn"].startswith("Player 2"):
        assert v["cover"] and "Player 2" in v["cover"]   # covered before Player 2 looks
    finish(page, watch, "board-spanic-cover")


def test_every_game_plays_a_random_game_to_its_end_on_one_page(site):
    """One page load: the Play page's board opens each registered game in turn."""
    base, context = site
    page, watch, board = open_board(context, f"{base}/book/play.html")
    finished = page.evaluate("""async ([b, modules]) => {
        const out = {};
        for (const module of modules) {
            await b.send("open", {game: module, seats: "human"});
            const start = b.view;
            await b.send("random", {version: start.version, seed: 1, count: 5000});
            const v = b.view;
            out[module] = [v.over, v.history.length, v.result, start.game.module];
        }
        return out;
    }""", [board, [game_module(cls()) for cls in all_games()]])
    unfinished = {m: r for m, r in finished.items() if not r[0] or r[3] != m}
    assert not unfinished, unfinished
    assert len(finished) == len(all_games())
    finish(page, watch)


def test_make_serve_serves_files_and_runs_no_code():
    """The server of `make serve`: pages yes; a kernel request (or any POST) no."""
    require_book()
    port = free_port()
    process = subprocess.Popen([sys.executable, str(ROOT / "tools" / "serve.py"),
                                "--port", str(port), "--quiet"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(base + "/index.html", timeout=5) as page:
                    assert page.status == 200
                    break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, "no server"
                time.sleep(0.2)
        for path in ("/api/kernels", "/api/sessions", "/index.html"):
            request = urllib.request.Request(base + path, data=b"{}", method="POST")
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=5)
            assert refused.value.code == 405
        with urllib.request.urlopen(base + "/board/shibumi.zip", timeout=5) as engine:
            assert engine.status == 200 and engine.headers["Content-Type"] == "application/zip"
        with urllib.request.urlopen(base + "/pyodide/pyodide.asm.wasm", timeout=5) as wasm:
            assert wasm.headers["Content-Type"] == "application/wasm"
    finally:
        process.terminate()
        process.wait(timeout=20)
