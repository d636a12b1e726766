"""The board in the reader's browser, measured (not a test: figures vary by machine).

    python benchmarks/browser.py [--game spline] [--seconds 3]

Serves the built book (``_build/html``) with the project's static server and
drives Debian chromium with Playwright.  Prints, for one chapter:

- the time from opening the chapter to a board ready to play (goal: under 5 s
  from a local server),
- the AI's reply at its default strength, for its first three moves (goal:
  under 1.5 s),
- random playouts per second in the page (the engine under Pyodide) as a ratio
  to native CPython measured in this process just before (goal: at least 1/4).
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests"))

from serve import make_server  # noqa: E402

from shibumi import load  # noqa: E402
from shibumi.book import game_module  # noqa: E402
from shibumi.webboard import playout_rate  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="spline")
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    from browser import browser_context

    game = load(args.game)
    book = ROOT / "_build" / "html"
    chapter = f"book/games/{game_module(game)}.html"
    if not (book / chapter).exists():
        print(f"error: {book / chapter} is missing: build the book (make book)", file=sys.stderr)
        return 1
    server = make_server(book, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    measured = playout_rate(game, args.seconds)
    native = measured["playouts"] / measured["seconds"]
    with browser_context() as context:
        ready = {}
        # A first visit (nothing cached), then a second page (Pyodide cached by the browser).
        pages = (("the chapter, first visit", chapter), ("the Play page next", "book/play.html"))
        for name, address in pages:
            page = context.new_page()
            began = time.perf_counter()
            page.goto(f"{base}/{address}")
            page.wait_for_function("window.shibumiBoards && window.shibumiBoards.length > 0")
            page.evaluate("window.shibumiBoards[window.shibumiBoards.length - 1].ready")
            ready[name] = time.perf_counter() - began
            if name != "the Play page next":
                page.close()
        replies = page.evaluate("""async () => {
            const board = window.shibumiBoards[window.shibumiBoards.length - 1];
            const times = [];
            for (let i = 0; i < 3 && !board.view.over; i++) {
                // a random move for the human seat; the board then lets the AI answer
                const t = performance.now();
                await board.send("random", {seed: i});
                times.push((performance.now() - t) / 1000);
            }
            return times;
        }""")
        bench = page.evaluate(f"""async () => {{
            const board = window.shibumiBoards[0];
            return await board.send("bench", {{game: {args.game!r}, seconds: {args.seconds}}});
        }}""")
    server.shutdown()
    in_page = bench["playouts"] / bench["seconds"]
    print(f"{game.info.name}, chapter {chapter}, served from 127.0.0.1")
    for name, seconds in ready.items():
        print(f"  open {name} -> board ready: {seconds:5.2f} s   (goal < 5 s)")
    print("  a move and the AI's reply (default strength): "
          + ", ".join(f"{t:.2f} s" for t in replies) + "   (goal < 1.5 s)")
    print(f"  random playouts/s: in the page {in_page:,.0f}, native {native:,.0f}, "
          f"ratio {in_page / native:.2f}   (goal >= 0.25)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
