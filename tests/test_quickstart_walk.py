"""A new user's first hour, from the quick start alone (docs/quick-start.md, where the README leads): a copy
of this checkout (what a clone would hold), a fresh venv made by ``make install``, and every command of the
page's first part typed into fresh shells that know nothing of this test run (as ``.ci/run`` starts from a
clean clone). It fails on any traceback, any failed command, and any silence: each step must say what it
did, the demo's own hint must work in a new shell, and the live page must show the requests the example
service sent, scored.

The only changes to what the page says: free ports instead of 4318/4319 (other processes on a shared
machine may hold those), given as flags to ``serve`` and to the example service.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from test_readme_commands import free_port, readme_commands

ROOT = Path(__file__).resolve().parents[1]
QUICK_START = ROOT / "docs" / "quick-start.md"
INSTALL_TIMEOUT_S = 1200
STEP_TIMEOUT_S = 300
SCORED_TIMEOUT_S = 120


def quick_start_blocks() -> list[list[str]]:
    text = QUICK_START.read_text()
    section = text[: text.index("\n## ")]
    return [readme_commands(f"```sh\n{block}```") for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def fresh_shell_environment() -> dict[str, str]:
    """What a new terminal on this machine has: nothing of this run's venv, Python or ragpulse settings."""
    ours = {Path(sys.prefix).resolve(), Path(sys.executable).parent.resolve()}
    path = [
        entry
        for entry in os.environ.get("PATH", "").split(os.pathsep)
        if entry and Path(entry).resolve() not in ours and not (Path(entry) / "ragpulse").exists()
    ]
    dropped = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "RAGPULSE_", "OTEL_", "OPENAI_", "PYTEST_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(dropped)}
    env.update(PATH=os.pathsep.join(path), COLUMNS="120", NO_PROXY="127.0.0.1,localhost")
    return env


def copy_of_checkout(destination: Path) -> Path:
    """The files a clone of this working tree holds (tracked and new, as they are now), nothing built."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination


def shell(script: str, cwd: Path, timeout_s: float = STEP_TIMEOUT_S, expected_code: int = 0) -> str:
    """One fresh shell running ``script`` as typed; its output, after checking it said something, showed no
    traceback and exited as expected."""
    done = subprocess.run(
        ["bash", "-c", script], cwd=cwd, env=fresh_shell_environment(), capture_output=True, text=True,
        timeout=timeout_s, check=False,
    )  # fmt: skip
    said = done.stdout + done.stderr
    assert "Traceback" not in said, said
    assert said.strip(), f"{script!r} said nothing"
    assert done.returncode == expected_code, f"{script!r} exited {done.returncode}:\n{said}"
    return said


def page_text(url: str) -> str:
    """The page's text as a browser would show it after following ``url`` (its sign-in link sets a cookie)."""
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    try:
        with browser.open(url, timeout=30) as response:
            page = response.read().decode("utf-8")
    except urllib.error.HTTPError as refused:  # a 401 still has a page: the sign-in form
        page = refused.read().decode("utf-8")
    except OSError:
        return ""
    page = re.sub(r"<style.*?</style>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.slow
def test_a_new_user_follows_the_quick_start_to_a_scored_request_and_the_live_page(tmp_path: Path) -> None:
    first, serve_block, second_shell, _make_targets = quick_start_blocks()
    assert first[0] == "make install" and "ragpulse demo" in first, first
    clone = copy_of_checkout(tmp_path / "ragpulse")
    assert not (clone / ".venv").exists()
    probe = subprocess.run(
        ["bash", "-c", "command -v ragpulse"], env=fresh_shell_environment(), capture_output=True, check=False
    )
    assert probe.returncode != 0, "ragpulse is on PATH before the quick start puts it there: proves nothing"

    # The first block, as typed into one shell: install, activate, demo.
    said = shell("\n".join(["set -e", *first]), clone, timeout_s=INSTALL_TIMEOUT_S)
    # pip is quiet: the install says what each step does and how long it usually takes, then its own time.
    assert re.search(r"make install: 3/3 .*\(usually \d", said) and re.search(r"done in \d+ s", said), said
    assert "HTML report:" in said and (clone / ".ragpulse" / "report.html").is_file()
    rerun = re.search(r"Rerun the report on this data: (.+)", said)
    assert rerun is not None, said
    # The demo's hint, copied into a new shell that never activated the venv.
    report = shell(rerun.group(1).strip(), clone)
    assert "hallucination" in report.lower()

    # `ragpulse serve` in its own shell (activated, as the first one was), until Ctrl-C.
    collector_port, live_port = free_port(), free_port()
    (serve_command,) = serve_block
    serve_log = tmp_path / "serve.log"
    with serve_log.open("w") as log:
        serve = subprocess.Popen(
            ["bash", "-c", f". .venv/bin/activate\nexec {serve_command} --port {collector_port}"
             f" --live-port {live_port}"],
            cwd=clone, env=fresh_shell_environment(), stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + STEP_TIMEOUT_S
        while "collector on" not in serve_log.read_text():
            assert serve.poll() is None and time.monotonic() < deadline, serve_log.read_text()
            time.sleep(0.2)
        page = f"http://127.0.0.1:{live_port}/"
        # The start line gives the page with this run's token, the address a user copies.
        printed = re.search(r"live report on (\S+)", serve_log.read_text())
        assert printed is not None and printed.group(1).startswith(f"{page}?token="), serve_log.read_text()

        # The second shell's block, as typed, with the example pointed at this collector.
        endpoint = f"--endpoint http://127.0.0.1:{collector_port}"
        typed = [f"{line} {endpoint}" if "ragpulse_example" in line else line for line in second_shell]
        # `ragpulse requests` and `ragpulse report` read through serve's page, which holds the database, with
        # the token serve made for its run (its note beside the database holds it for the same user).
        said = shell("\n".join(typed), clone)
        assert "variant A: 10 sent" in said and "variant B: 10 sent" in said
        assert "Requests since" in said and "ragpulse report" in said and "holds" not in said

        # Scored, and on the live page: the demo's 100 requests per variant and the example's 10 more.
        deadline = time.monotonic() + SCORED_TIMEOUT_S
        while "lexical: 20 scored" not in serve_log.read_text():
            assert time.monotonic() < deadline, serve_log.read_text()
            time.sleep(0.5)
        assert "sign in" in page_text(page).lower()  # without the token the page shows nothing traced
        text = page_text(printed.group(1))
        assert "ragpulse-example" in text and "(n=110)" in text, text[:2000]
    finally:
        serve.send_signal(signal.SIGINT)  # Ctrl-C, as the quick start says
        try:
            code = serve.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
            raise
    said = serve_log.read_text()
    assert code == 0 and "Traceback" not in said, said
    assert "stopping" in said
