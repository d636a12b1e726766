"""Browser checks with Debian's chromium, driven by Playwright (never a downloaded browser).

Shared by the browser tests: launching chromium, serving a folder on
127.0.0.1, and watching a page for console errors and failed requests.
"""
from __future__ import annotations

import contextlib
import pathlib
import shutil
import socket
import sys
import tempfile
import threading

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOOK = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "screenshots"
CHROMIUM = "/usr/bin/chromium"
# Headless, and quiet on a machine with no network but the package registries.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]

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
    """Serve a folder on 127.0.0.1 with the server of ``make serve`` (static
    files only), quietly; yields the base address."""
    sys.path.insert(0, str(ROOT / "tools"))
    from serve import make_server

    server = make_server(directory, 0, quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def screenshot(page, name: str) -> pathlib.Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
