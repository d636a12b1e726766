#!/usr/bin/env python3
"""Serve the built rule book on the loopback interface.

    python tools/serve.py [--port 8000] [--directory _build/html]

`make serve` builds the book first when it is missing or older than its sources, then
runs this. Standard library only. It is a script rather than `python -m http.server`
so that live play (a Voila server beside the static book) can be started from here too.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import pathlib
import signal
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_DIRECTORY = ROOT / "_build" / "html"


def make_book_server(directory: pathlib.Path, host: str = HOST,
                     port: int = DEFAULT_PORT) -> http.server.ThreadingHTTPServer:
    """Return an HTTP server (already bound, not yet serving) for the files in `directory`."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                                directory=str(directory))
    return http.server.ThreadingHTTPServer((host, port), handler)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port to listen on (default {DEFAULT_PORT}; 0 picks a free one)")
    parser.add_argument("--host", default=HOST,
                        help=f"address to bind (default {HOST}, this machine only)")
    parser.add_argument("--directory", type=pathlib.Path, default=DEFAULT_DIRECTORY,
                        help="the built HTML book (default _build/html)")
    return parser.parse_args(argv)


def _stop_on_sigterm(signum, frame):
    raise KeyboardInterrupt  # `kill PID` shuts down as cleanly as Ctrl+C


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    if not (args.directory / "index.html").is_file():
        print(f"error: no built book in {args.directory} (run `make book` first)",
              file=sys.stderr)
        return 1
    try:
        server = make_book_server(args.directory, args.host, args.port)
    except OSError as exc:
        print(f"error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}"
              " (choose another port with PORT=...)", file=sys.stderr)
        return 1
    host, port = server.server_address[:2]
    print(f"Serving the book at http://{host}:{port}/", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nStopped.", flush=True)
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
