#!/usr/bin/env python3
"""Serve the built rule book and live play together, on the loopback interface.

    python tools/serve.py [--port 8000] [--directory _build/html]

One Jupyter server, one address:

- ``/`` redirects to ``/book/``, the static book built by ``make book``;
- ``/voila/render/play.ipynb?game=<module>`` is the live page of a game (Voila
  runs the notebook written by :func:`write_live_notebook` in a kernel, so the
  play widget's buttons and the AI work);
- ``/api/...`` and the rest are the Jupyter server's own (kernels for Voila).

``make serve`` builds the book first when it is missing or older than its
sources, then runs this.  No token: the server listens on 127.0.0.1 only.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_DIRECTORY = ROOT / "_build" / "html"
LIVE_DIRECTORY = ROOT / "_build" / "live"
TEMPLATES = ROOT / "tools" / "jupyter"

#: Browser side of the live page: the widget's "Link to this game" carries the
#: record and changes after every move; the script keeps the latest in the
#: browser's storage and, when the page is opened again without a record,
#: goes to the saved link, so a closed page loses nothing.
RESUME_SCRIPT = """
(function () {
  const key = "shibumi-live:" + GAME;
  const saved = localStorage.getItem(key);
  if (!new URLSearchParams(location.search).has("record") && saved
      && saved.includes("record=")) {
    location.replace(saved);
    return;
  }
  const keep = () => {
    const link = Array.from(document.querySelectorAll("a"))
      .find(a => a.textContent === "Link to this game");
    if (link) localStorage.setItem(key, link.getAttribute("href"));
  };
  keep();
  new MutationObserver(keep).observe(document.body,
    {subtree: true, childList: true, attributes: true, characterData: true});
})();
"""

#: The live page: which game comes from the address (``?game=spline``).
LIVE_CODE = '''\
import html
import os
from urllib.parse import parse_qs

import json

import ipywidgets as widgets
from IPython.display import Javascript, display

from shibumi.book import game_module
from shibumi.errors import ShibumiError
from shibumi.registry import names
from shibumi.views.play import PlayWidget

query = parse_qs(os.environ.get("QUERY_STRING", ""))
asked = query.get("game", ["spline"])[0].split(",")     # a few games may share a page
record = query.get("record", [None])[0] if len(asked) == 1 else None
modules = {game_module(name): name for name in names()}
unknown = [name for name in asked if name not in modules]
if unknown or len(asked) > 12:
    raise SystemExit(f"No game {unknown[0]!r}; games: {', '.join(sorted(modules))}" if unknown
                     else "At most 12 games on one page")
for module in asked:
    display(widgets.HTML(f'<p><a href="/book/book/games/{module}.html">Back to the chapter</a>'
                         ' &middot; <a href="/book/index.html">The rule book</a></p>'))
    link = f"/voila/render/play.ipynb?game={module}"
    try:
        board = PlayWidget(modules[module], seats=None, ai="mcts", budget=1.0, record=record,
                           link=link)
    except ShibumiError as exc:        # a damaged link: say so, and start afresh
        display(widgets.HTML(f"<p>This link's game could not be read "
                             f"({html.escape(str(exc))}); a new game starts.</p>"))
        board = PlayWidget(modules[module], seats=None, ai="mcts", budget=1.0, link=link)
    display(board)
if len(asked) == 1:      # keep the game in the browser too: reopening the page resumes it
    display(Javascript(RESUME_SCRIPT.replace("GAME", json.dumps(asked[0]))))
'''


LIVE_CODE = f"RESUME_SCRIPT = {RESUME_SCRIPT!r}\n" + LIVE_CODE


def write_live_notebook(directory: pathlib.Path = LIVE_DIRECTORY) -> pathlib.Path:
    """Write ``play.ipynb`` (one code cell, no outputs) for Voila; returns its path."""
    notebook = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": "play",
                   "metadata": {}, "outputs": [], "source": LIVE_CODE.splitlines(True)}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                    "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4, "nbformat_minor": 5}
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "play.ipynb"
    path.write_text(json.dumps(notebook, indent=1) + "\n")
    return path


def make_server(book: pathlib.Path, host: str = HOST, port: int = DEFAULT_PORT):
    """A started-up (initialised, not yet running) Jupyter server serving book and live play."""
    from jupyter_server.serverapp import ServerApp
    from tornado.web import RedirectHandler, StaticFileHandler

    live = write_live_notebook()
    # Voila finds the "shibumi" template (tools/jupyter/voila/templates) on this path.
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        p for p in (str(TEMPLATES), os.environ.get("JUPYTER_PATH", "")) if p)
    app = ServerApp()
    app.initialize(argv=[
        f"--ServerApp.ip={host}", f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0", "--ServerApp.open_browser=False",
        f"--ServerApp.root_dir={live.parent}",
        "--IdentityProvider.token=", "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True", "--ServerApp.allow_root=True",
        "--ServerApp.jpserver_extensions={'voila': True}",
        "--ServerApp.log_level=WARN", "--VoilaConfiguration.template=shibumi",
        # jupytext's front-end extension needs JupyterLab's document manager,
        # which Voila lacks: loaded there, it only logs an error.
        "--VoilaConfiguration.extension_denylist=['jupyterlab-jupytext']",
        # The live page runs shibumi from this checkout's environment.
        "--KernelManager.shutdown_wait_time=1",
    ], find_extensions=False)
    # MathJax from the book's own copy (tools/fetch_js.py), not a CDN.
    app.web_app.settings["mathjax_url"] = "/book/mathjax/tex-mml-chtml.js"
    app.web_app.add_handlers(".*$", [
        (r"/", RedirectHandler, {"url": "/book/index.html"}),
        (r"/favicon.ico", RedirectHandler, {"url": "/book/favicon.ico"}),
        (r"/book", RedirectHandler, {"url": "/book/index.html"}),
        (r"/book/(.*)", StaticFileHandler, {"path": str(book),
                                            "default_filename": "index.html"}),
    ])
    return app


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port to listen on (default {DEFAULT_PORT})")
    parser.add_argument("--host", default=HOST,
                        help=f"address to bind (default {HOST}, this machine only)")
    parser.add_argument("--directory", type=pathlib.Path, default=DEFAULT_DIRECTORY,
                        help="the built HTML book (default _build/html)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not (args.directory / "index.html").is_file():
        print(f"error: no built book in {args.directory} (run `make book` first)",
              file=sys.stderr)
        return 1
    try:
        app = make_server(args.directory.resolve(), args.host, args.port)
    except SystemExit as exc:  # the server exits when the port is taken
        print(f"error: cannot listen on {args.host}:{args.port} ({exc}); "
              "choose another port with PORT=...", file=sys.stderr)
        return 1
    print(f"Serving the book and live play at http://{args.host}:{app.port}/", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    app.start()
    return 0


if __name__ == "__main__":
    sys.exit(main())
