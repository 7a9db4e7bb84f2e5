"""Debian's chromium, headless: the report pages as a person's browser renders them.

The session fixture ``chromium`` (tests/conftest.py) finds the binary, installs Debian's package when it is
missing and the run may install (CI, or root with apt-get), and skips with the reason otherwise.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path

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
        with tempfile.TemporaryDirectory(prefix="ragpulse-chromium-") as profile:
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
