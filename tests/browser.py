"""Browser checks with Debian's chromium, driven by Playwright (never a downloaded browser).

Shared by the browser tests: launching chromium, serving a folder on
127.0.0.1, starting the live server, and watching a page for console errors
and failed requests.
"""
from __future__ import annotations

import contextlib
import functools
import http.server
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOOK = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "screenshots"
CHROMIUM = "/usr/bin/chromium"
# Headless, and quiet on a machine with no network but the package registries.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]

#: Console errors of the live (Voila) pages that are harmless, each with the reason.
#: The book's static pages have none.  Keep it short.
LIVE_EXPLAINED_ERRORS: dict[str, str] = {
    "Cannot read properties of undefined (reading 'Config')":
        "Voila's front end configures MathJax 2 (MathJax.Hub.Config) at the address it "
        "is given; tools/serve.py gives it the book's own MathJax 3 rather than a CDN "
        "the machine cannot reach. The play page has no formulas, so nothing is lost.",
}


def require_book() -> pathlib.Path:
    if not (BOOK / "index.html").is_file():
        pytest.fail("no built book in _build/html: run `make book` (make test does it)")
    return BOOK


def require_chromium() -> str:
    if not pathlib.Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium "
                    "(`make chromium`, which make test runs, does `apt-get install chromium`)")
    return CHROMIUM


@contextlib.contextmanager
def browser_context(viewport=(1280, 900)):
    """A fresh chromium profile, closed afterwards."""
    from playwright.sync_api import sync_playwright

    executable = require_chromium()
    profile = tempfile.mkdtemp(prefix="shibumi-chromium-")
    try:
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                profile, executable_path=executable, args=CHROMIUM_FLAGS, headless=True,
                viewport={"width": viewport[0], "height": viewport[1]})
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


class Watch:
    """Console errors and failed requests of one page, as they happen."""

    def __init__(self, page, explained: dict[str, str] | None = None) -> None:
        self.explained = explained or {}
        self.errors: list[str] = []
        self.failed: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        page.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})"))
        page.on("response", lambda r: self.failed.append(f"{r.url} (HTTP {r.status})")
                if r.status >= 400 else None)

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def unexplained(self) -> list[str]:
        return [e for e in self.errors
                if not any(known in e for known in self.explained)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def static_server(directory: pathlib.Path):
    """Serve a folder on 127.0.0.1 (quietly); yields the base address."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def live_server(timeout: float = 90.0):
    """`tools/serve.py` (book and Voila) on a free port; yields the base address."""
    port = free_port()
    log = tempfile.TemporaryFile()
    process = subprocess.Popen([sys.executable, str(ROOT / "tools" / "serve.py"),
                                "--port", str(port)], cwd=ROOT, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(base + "/book/index.html", timeout=5):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    pytest.fail("the live server did not start:\n"
                                + log.read().decode(errors="replace")[-3000:])
                time.sleep(0.5)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def screenshot(page, name: str) -> pathlib.Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
