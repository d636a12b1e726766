#!/usr/bin/env python3
"""Serve the built rule book as static files, on the loopback interface.

    python tools/serve.py [--port 8000] [--directory _build/html]

The book's boards play in the reader's browser (the engine runs there under
Pyodide), so the server only hands out files: GET and HEAD, nothing that
runs code (any other method is refused with 405).  Any static file server
does as well; this one exists to set the types WebAssembly and JavaScript
modules need, to refuse directory listings and to print the address.
Standard library only.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_DIRECTORY = ROOT / "_build" / "html"


class BookHandler(http.server.SimpleHTTPRequestHandler):
    """Files of the book, nothing else."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript",
                      ".js": "text/javascript", ".zip": "application/zip",
                      ".json": "application/json", ".svg": "image/svg+xml"}

    def list_directory(self, path):
        self.send_error(404, "No listing: open a page of the book")
        return None

    def _refuse(self) -> None:
        self.send_response(405, "Method Not Allowed")
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse

    def log_message(self, format, *args) -> None:     # noqa: A002 - the base class's name
        if not getattr(self.server, "quiet", False):
            super().log_message(format, *args)


def make_server(directory: pathlib.Path, port: int, quiet: bool = False):
    handler = functools.partial(BookHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer((HOST, port), handler)
    server.quiet = quiet
    return server


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--directory", default=str(DEFAULT_DIRECTORY))
    parser.add_argument("--quiet", action="store_true", help="do not log each request")
    args = parser.parse_args(argv)
    directory = pathlib.Path(args.directory)
    if not (directory / "index.html").exists():
        print(f"error: no book in {directory}: build it first (make book)", file=sys.stderr)
        return 1
    try:
        server = make_server(directory, args.port, args.quiet)
    except OSError as exc:
        print(f"error: cannot listen on {HOST}:{args.port} ({exc.strerror}); "
              f"try another port: make serve PORT=8001", file=sys.stderr)
        return 1
    print(f"The rule book: http://{HOST}:{server.server_port}/  (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
