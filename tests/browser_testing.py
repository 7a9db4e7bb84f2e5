"""Debian's chromium, headless: the report pages as a person's browser renders them.

The session fixture ``chromium`` (tests/conftest.py) finds the binary, installs Debian's package when it is
missing and the run may install (CI, or root with apt-get), and skips with the reason otherwise.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import aiohttp

BINARIES = ("chromium", "chromium-browser")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
)
INSTALL_TIMEOUT_S = 900
RUN_TIMEOUT_S = 90


def find_chromium() -> str | None:
    return next((path for name in BINARIES if (path := shutil.which(name))), None)


def install_chromium() -> tuple[str | None, str]:
    """The binary after ``apt-get install chromium`` where this run may install; else None and why not."""
    if not shutil.which("apt-get"):
        return None, "chromium not installed and no apt-get to install it"
    if os.geteuid() != 0 and not os.environ.get("CI"):
        return None, "chromium not installed (apt-get install chromium needs root; CI installs it)"
    command = ["apt-get", "install", "-y", "-qq", "chromium"]
    if os.geteuid() != 0:
        command = ["sudo", "-n", *command]
    result = subprocess.run(command, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False)
    if result.returncode != 0:
        return None, f"apt-get install chromium failed: {result.stderr.strip()[-300:]}"
    found = find_chromium()
    return found, "" if found else "apt-get installed chromium but no binary is on PATH"


class Chromium:
    def __init__(self, binary: str) -> None:
        self.binary = binary

    def _run(self, url: str, *flags: str) -> subprocess.CompletedProcess[str]:
        with tempfile.TemporaryDirectory(prefix="ragpulse-chromium-", ignore_cleanup_errors=True) as profile:
            return subprocess.run(
                [self.binary, *FLAGS, f"--user-data-dir={profile}", *flags, url],
                capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=True,
            )  # fmt: skip

    def dump_dom(self, url: str) -> str:
        """The document after the browser parsed and laid it out."""
        return self._run(url, "--dump-dom").stdout

    def screenshot(self, url: str, path: Path, width: int = 1280, height: int = 2000) -> Path:
        self._run(url, f"--screenshot={path}", f"--window-size={width},{height}")
        return path

    def tab(self, width: int = 1280, height: int = 800) -> DevTools:
        """A tab to drive (close it when done), its viewport ``width`` x ``height``."""
        return DevTools(self.binary, width, height)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script", "title", "head"):
            self._hidden += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script", "title", "head"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def visible_text(dom: str) -> str:
    """The page's text with whitespace collapsed, as a reader sees it (no styles, no SVG titles' head)."""
    parser = _Text()
    parser.feed(dom)
    return " ".join(" ".join(parser.parts).split())


def is_png(path: Path) -> bool:
    return path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


class DevTools:
    """A headless chromium tab driven over the DevTools protocol: navigate like a person, then ask the
    laid-out page where things are (what ``--dump-dom`` cannot say: what is above the fold)."""

    def __init__(self, binary: str, width: int = 1280, height: int = 800) -> None:
        self._profile = tempfile.TemporaryDirectory(prefix="ragpulse-chromium-", ignore_cleanup_errors=True)
        self._process = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self._profile.name}", "--remote-debugging-port=0",
             "--remote-debugging-address=127.0.0.1", f"--window-size={width},{height}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self._loop = asyncio.new_event_loop()
        self._ids = itertools.count(1)
        self._events: list[dict[str, Any]] = []
        try:
            self._session, self._socket = self._loop.run_until_complete(self._connect())
            self.command("Page.enable")
            self.command(
                "Emulation.setDeviceMetricsOverride",
                width=width, height=height, deviceScaleFactor=1, mobile=False,
            )  # fmt: skip
        except BaseException:
            self.close()
            raise

    async def _connect(self) -> tuple[aiohttp.ClientSession, aiohttp.ClientWebSocketResponse]:
        port_file = Path(self._profile.name) / "DevToolsActivePort"
        deadline = time.monotonic() + RUN_TIMEOUT_S
        while not port_file.exists() or not port_file.read_text().strip():
            if time.monotonic() > deadline or self._process.poll() is not None:
                raise RuntimeError("chromium did not open its DevTools port")
            await asyncio.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        session = aiohttp.ClientSession()
        async with session.get(f"http://127.0.0.1:{port}/json/list") as listing:
            targets = await listing.json()
        page = next(target for target in targets if target["type"] == "page")
        socket = await session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        return session, socket

    def command(self, method: str, **params: Any) -> dict[str, Any]:
        return self._loop.run_until_complete(self._command(method, params))

    async def _command(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        number = next(self._ids)
        await self._socket.send_json({"id": number, "method": method, "params": params})
        async with asyncio.timeout(RUN_TIMEOUT_S):
            while True:
                message = await self._socket.receive_json()
                if message.get("id") == number:
                    if "error" in message:
                        raise RuntimeError(f"{method}: {message['error']}")
                    return dict(message.get("result", {}))
                self._events.append(message)

    def _wait_for(self, event: str) -> None:
        async def wait() -> None:
            async with asyncio.timeout(RUN_TIMEOUT_S):
                while not any(message.get("method") == event for message in self._events):
                    self._events.append(await self._socket.receive_json())

        self._loop.run_until_complete(wait())

    def open(self, url: str) -> None:
        """Go to ``url`` (redirects followed, cookies kept) and wait until the page has loaded."""
        self._events.clear()
        self.command("Page.navigate", url=url)
        self._wait_for("Page.loadEventFired")

    def click(self, selector: str) -> None:
        """Click the element ``selector`` finds, as a person would, and wait for the page it leads to."""
        self._events.clear()
        self.evaluate(f"document.querySelector({json.dumps(selector)}).click()")
        self._wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        result = self.command("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def close(self) -> None:
        if hasattr(self, "_socket"):
            self._loop.run_until_complete(self._socket.close())
            self._loop.run_until_complete(self._session.close())
        self._loop.close()
        self._process.terminate()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._profile.cleanup()
