"""The documentation's screenshots, made from the demo's data in headless chromium.

    .venv/bin/python scripts/screenshots.py                       # writes docs/img/*.png
    .venv/bin/python scripts/screenshots.py --out DIR --demo STATE  # elsewhere, from a demo already run

It runs ``ragpulse demo`` (as a new user does: the free lexical judge) into a temporary directory, or takes
the ``--dir`` of a demo already run (tests/scorers/test_demo.py passes the one its story test ran), takes the
HTML report it wrote, then starts ``ragpulse serve`` on that database on loopback (free ports, a read token of
its own) and takes the live page, the review queue and a request's page. Every page is first fetched as a
script would (``Authorization: Bearer``): one that answers with an error, or without the text it exists to
show, stops the run with the reason, so a broken page fails the test that runs this script. Screenshots are
quantised to a palette and written optimised; a blank one (one colour nearly everywhere) is an error too. No
network: the pages load nothing from outside.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import IO

from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "docs" / "img"
RAGPULSE = Path(sys.executable).parent / "ragpulse"
WIDTH = 1280
START_TIMEOUT_S = 90
STEP_TIMEOUT_S = 180
COLOURS = 128
MARGIN = 32
MIN_HEIGHT = 800
BLANK_SHARE = 0.98
"""A screenshot whose most common colour covers more than this share of it shows nothing."""
DROPPED_ENVIRONMENT = ("RAGPULSE_", "OTEL_", "OPENAI_")
"""The run's own settings stay out: the demo judges with the free lexical judge, as a new user's does."""


class ScreenshotError(RuntimeError):
    """A page that errors, is empty, or a screenshot that could not be made."""


@dataclass(frozen=True)
class Shot:
    name: str
    path: str
    height: int
    shows: tuple[str, ...]
    """Text the page must hold: what it exists to show (the service, the queue, the answer)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the PNGs go (default docs/img)")
    parser.add_argument("--chromium", default=None, help="the chromium binary (default: chromium on PATH)")
    parser.add_argument(
        "--demo", type=Path, help="the --dir of a `ragpulse demo` already run (default: run one)"
    )
    parser.add_argument("--report", type=Path, help="its HTML report (default: DEMO/report.html)")
    args = parser.parse_args(argv)
    browser = args.chromium or shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("screenshots: no chromium on PATH (apt-get install chromium)", file=sys.stderr)
        return 2
    try:
        written = take_screenshots(args.out, browser, args.demo, args.report)
    except ScreenshotError as exc:
        print(f"screenshots: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(f"{path}  {path.stat().st_size // 1024} KiB")
    return 0


def take_screenshots(out: Path, browser: str, demo: Path | None, report: Path | None) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ragpulse-screenshots-") as work_dir:
        work = Path(work_dir)
        demo = demo.resolve() if demo is not None else run_demo(work)
        report = report or demo / "report.html"
        if not (demo / "chdb").is_dir() or not report.is_file():
            raise ScreenshotError(f"{demo} holds no demo's database (chdb/) and report ({report.name})")
        written = [capture(browser, report.resolve().as_uri(), out / "report.png", 1500)]
        with serving(work, demo / "chdb") as (base, token):
            for shot in live_shots(base, token):
                url = f"{base}{shot.path}"
                check_page(url, token, shot)
                signed_in = f"{url}{'&' if '?' in shot.path else '?'}token={token}"
                written.append(capture(browser, signed_in, out / shot.name, shot.height))
    return written


def clean_environment() -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if not name.startswith(DROPPED_ENVIRONMENT)}
    env.update(COLUMNS="100", NO_PROXY="127.0.0.1,localhost")
    return env


def run_demo(work: Path) -> Path:
    demo = work / "demo"
    command = [str(RAGPULSE), "demo", "--dir", str(demo)]
    done = subprocess.run(
        command, cwd=work, env=clean_environment(), capture_output=True, text=True, timeout=STEP_TIMEOUT_S
    )
    if done.returncode != 0 or not (demo / "report.html").is_file():
        raise ScreenshotError(f"ragpulse demo failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return demo


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(work: Path, database: Path) -> Iterator[tuple[str, str]]:
    """``ragpulse serve`` on the demo's database: its live page's base URL and read token, until the block
    ends (then it is stopped as Ctrl-C stops it)."""
    token = secrets.token_urlsafe(18)
    port = free_port()
    env = clean_environment() | {"RAGPULSE_LIVE__READ_TOKEN": token}
    command = [str(RAGPULSE), "serve", "--dsn", f"chdb://{database}", "--port", "0", "--live-port", str(port)]
    log = (work / "serve.log").open("w+")
    process = subprocess.Popen(command, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, process, log)
        yield base, token
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def wait_until_up(base: str, process: subprocess.Popen[bytes], log: IO[str]) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ScreenshotError(f"ragpulse serve exited ({process.returncode}): {tail(log)}")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=5) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.3)
    raise ScreenshotError(f"ragpulse serve did not answer within {START_TIMEOUT_S} s: {tail(log)}")


def tail(log: IO[str]) -> str:
    log.seek(0)
    return " ".join(log.read().split())[-500:]


def fetch(url: str, token: str) -> str:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return str(answer.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        raise ScreenshotError(f"{url} answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise ScreenshotError(f"{url}: {exc}") from None


REQUEST_LINK = re.compile(r"href=['\"](/review/request\?[^'\"]+)['\"]")


def live_shots(base: str, token: str) -> list[Shot]:
    """The live page, the review queue, and the page of a request the queue offers (one a judge found
    hallucinated when there is one: its page then shows the unsupported sentence marked)."""
    queue = fetch(f"{base}/review", token)
    offered = [
        (link.group(1), row)
        for row in re.findall(r"<tr>(.*?)</tr>", queue, re.S)
        if (link := REQUEST_LINK.search(row)) is not None
    ]
    if not offered:
        raise ScreenshotError(f"{base}/review lists no request to open")
    request_path = next((path for path, row in offered if "hallucinated" in row), offered[0][0])
    return [
        Shot("live.png", "/", 1000, ("ragpulse-example", "hallucination")),
        Shot("review.png", "/review", 1000, ("Review queue",)),
        Shot("request.png", unescape(request_path), 1400, ("Hallucinated", "Grounded")),
    ]


def check_page(url: str, token: str, shot: Shot) -> None:
    page = fetch(url, token)
    text = " ".join(re.sub(r"<[^>]+>", " ", unescape(page)).split())
    missing = [expected for expected in shot.shows if expected.lower() not in text.lower()]
    if missing:
        raise ScreenshotError(f"{url} does not show {', '.join(map(repr, missing))}: {text[:300]}")


def capture(browser: str, url: str, path: Path, height: int) -> Path:
    """A ``WIDTH`` x ``height`` screenshot of ``url``, quantised and optimised; an error when blank."""
    with tempfile.TemporaryDirectory(prefix="ragpulse-chromium-") as profile:
        raw = Path(profile) / "shot.png"
        command = [
            browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run", f"--user-data-dir={profile}/data", f"--window-size={WIDTH},{height}",
            f"--screenshot={raw}", url,
        ]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=STEP_TIMEOUT_S)
        if done.returncode != 0 or not raw.is_file() or raw.stat().st_size == 0:
            raise ScreenshotError(f"chromium made no screenshot of {path.name}: {done.stderr.strip()[-300:]}")
        with Image.open(raw) as image:
            picture = image.convert("RGB")
    if is_blank(picture):
        raise ScreenshotError(f"{path.name} is blank: the page rendered nothing")
    picture = without_empty_bottom(picture)
    picture.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    return path


def without_empty_bottom(picture: Image.Image) -> Image.Image:
    """A page shorter than the window ends in rows of its background: cut them, keeping a margin."""
    background = Image.new("RGB", picture.size, picture.getpixel((0, picture.height - 1)))
    box = ImageChops.difference(picture, background).getbbox()
    bottom = min(picture.height, (box[3] if box else picture.height) + MARGIN)
    return picture.crop((0, 0, picture.width, max(bottom, MIN_HEIGHT)))


def is_blank(picture: Image.Image) -> bool:
    colours = picture.getcolors(maxcolors=picture.width * picture.height) or []
    most = max((count for count, _ in colours), default=0)
    return most > BLANK_SHARE * picture.width * picture.height


if __name__ == "__main__":
    raise SystemExit(main())
