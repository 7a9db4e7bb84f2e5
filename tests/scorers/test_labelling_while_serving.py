"""While ``ragpulse serve`` holds the embedded database, ``label``, ``label --next``, ``labels import`` and
``export --labelled`` go through its live page as ``requests`` and ``report`` do, labels authenticated as the
page's own form is (read token, and the write token when set); where a call cannot go through, one line says
to use ``/review`` or to stop serve (issue 42, item 1)."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from live_testing import TOKEN, fetch, running_page
from ragpulse_core.cli import main
from ragpulse_core.holder import holder_file
from ragpulse_core.store import Store
from ragpulse_dashboards.live import label_api
from review_data import judged_request
from serve_process import otlp_root_spans

RAGPULSE = str(Path(sys.executable).with_name("ragpulse"))
WRITE_TOKEN = "write-s3cret-51d0"
TRACES = ["3a" * 16, "4b" * 16]
START_TIMEOUT_S = 90
SCORED_TIMEOUT_S = 120


class Serve:
    def __init__(self, directory: Path) -> None:
        self.database = directory / "db"
        self.listed = ""
        """What ``ragpulse requests`` printed, once both requests were scored."""
        self.env = {
            k: v for k, v in os.environ.items() if not k.startswith(("RAGPULSE_", "OPENAI_", "OTEL_"))
        }
        self.env.update(
            RAGPULSE_SCORER__INTERVAL_S="1", RAGPULSE_SCORER__SETTLE_DELAY_S="0", COLUMNS="80",
            RAGPULSE_LIVE__READ_TOKEN=TOKEN, RAGPULSE_ALERTS__ENABLED="false",
        )  # fmt: skip

    def run(self, *argv: str, write_token: bool = True, cwd: Path | None = None) -> tuple[int, str, str]:
        env = {**self.env, "RAGPULSE_LIVE__WRITE_TOKEN": WRITE_TOKEN} if write_token else self.env
        done = subprocess.run(
            [RAGPULSE, *argv, "--dsn", f"chdb://{self.database}"], env=env, capture_output=True, text=True,
            timeout=120, check=False, cwd=cwd,
        )  # fmt: skip
        assert "Traceback" not in done.stdout + done.stderr, done.stderr
        return done.returncode, done.stdout, done.stderr


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory, migrated_copy: Callable[[Path], Path]) -> Iterator[Serve]:
    directory = tmp_path_factory.mktemp("serving")
    running = Serve(directory)
    migrated_copy(running.database)
    port = _free_port()
    process = subprocess.Popen(
        [RAGPULSE, "serve", "--dsn", f"chdb://{running.database}", "--port", str(port), "--live-port", "0"],
        env={**running.env, "RAGPULSE_LIVE__WRITE_TOKEN": WRITE_TOKEN}, cwd=directory,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _until(lambda: (directory / "db.holder.json").exists(), START_TIMEOUT_S, "serve to start")
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/traces", data=otlp_root_spans(TRACES, service="shop"),
            headers={"Content-Type": "application/json"},
        )  # fmt: skip
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 200

        def scored() -> bool:
            code, running.listed, _ = running.run("requests")
            return code == 0 and running.listed.count("(judge: lexical)") == len(TRACES)

        _until(scored, SCORED_TIMEOUT_S, "both requests scored")
        yield running
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _until(predicate, timeout_s: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.5)
    pytest.fail(f"timed out waiting for {what}")


@pytest.mark.slow
def test_labelling_commands_work_through_serve(serve: Serve, tmp_path: Path) -> None:
    # Reading needs no write token.
    code, out, err = serve.run("label", "--next", write_token=False)
    assert code == 0 and "holds" not in out + err, out + err
    hint = r"label it: \S*ragpulse label [0-9a-f]{32} hallucinated\|grounded"
    assert re.search(hint, " ".join(out.split())), out

    # A label does: without it, one line says what to do instead.
    code, out, err = serve.run("label", TRACES[1], "hallucinated", write_token=False)
    lines = (out + err).strip().splitlines()
    assert code == 1 and len(lines) == 1, out + err
    assert "write token" in lines[0] and "/review" in lines[0] and "stopping serve" in lines[0]

    # The 16 characters `requests` prints are enough to name a request.
    shown = re.findall(r"\b([0-9a-f]{16})\b", serve.listed)
    assert sorted(shown) == sorted(trace[:16] for trace in TRACES)
    code, out, err = serve.run("label", TRACES[0][:16], "hallucinated", "--author", "ann", "--note", "fee")
    assert code == 0 and f"labelled {TRACES[0]}" in out and "as ann" in out, out + err

    labels = tmp_path / "labels.jsonl"
    # A file's line may name its request by the same prefix.
    labels.write_text(json.dumps({"trace_id": TRACES[1][:16], "label": "grounded"}) + "\n{oops\n")
    code, out, err = serve.run("labels", "import", "labels.jsonl", "--author", "bo", cwd=tmp_path)
    said = " ".join(out.split())
    assert (
        code == 1 and "labels.jsonl:2:" in said and "imported 1 labels from 2 lines; 1 lines refused" in said
    )

    code, out, err = serve.run("export", "--labelled", "--all")
    exported = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and "exported 2 labelled requests" in err, err
    assert {(line["trace_id"], line["hallucinated"], line["author"]) for line in exported} == {
        (TRACES[0], True, "ann"),
        (TRACES[1], False, "bo"),
    }


def test_serve_without_a_live_page_is_named_with_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "db"
    # A note as `serve --no-live` leaves it, by another live process (this one's parent).
    holder_file(database).write_text(json.dumps({"pid": os.getppid(), "command": "ragpulse serve"}))
    assert main(["label", "--next", "--dsn", f"chdb://{database}"]) == 1
    said = " ".join(capsys.readouterr().out.split())
    assert "serves no live page" in said and "stop it (Ctrl-C)" in said and "/review" in said, said


def test_the_label_api_takes_only_a_commands_token_and_bounds_imports(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    judged = judged_request(store, 1, lexical_bad=True, support=0.2)
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    label = f"/api/v1/labels/label?trace={judged.id.trace_id}&verdict=grounded&author=ann&width=80"
    with running_page(store, write_token=WRITE_TOKEN) as page:
        cookie = fetch(page.url, f"/?token={TOKEN}").headers["Set-Cookie"].split(";", 1)[0]
        by_browser = fetch(page.url, label, method="POST", headers={"Cookie": cookie}, body=b"")
        assert by_browser.status == 403 and "bearer token" in json.loads(by_browser.body)["error"]
        beside = {"Cookie": cookie, "Authorization": "Bearer not-the-token"}
        assert fetch(page.url, label, method="POST", headers=beside, body=b"").status == 403

        unwritten = fetch(page.url, label, method="POST", headers=bearer, body=b"")
        assert unwritten.status == 403 and "live.write_token" in json.loads(unwritten.body)["error"]
        written = fetch(
            page.url,
            label,
            method="POST",
            body=b"",
            headers={**bearer, "X-Ragpulse-Write-Token": WRITE_TOKEN},
        )
        answer = json.loads(written.body)
        assert written.status == 200 and answer["exit"] == 0 and "labelled" in answer["output"]

        for wrong in (
            "/api/v1/labels/delete?width=80",
            "/api/v1/labels/label?verdict=maybe&trace=x&author=a",
        ):
            refused = fetch(page.url, wrong, method="POST", headers=bearer, body=b"")
            assert refused.status == 400 and json.loads(refused.body)["error"], wrong

        monkeypatch.setattr(label_api, "IMPORT_MAX_BYTES", 1000)
        too_large = fetch(
            page.url, "/api/v1/labels/import?file=big.jsonl&author=ann", method="POST", body=b"x" * 5000,
            headers={**bearer, "X-Ragpulse-Write-Token": WRITE_TOKEN},
        )  # fmt: skip
        assert too_large.status == 413

        guesses = [
            fetch(
                page.url,
                label,
                method="POST",
                body=b"",
                headers={**bearer, "X-Ragpulse-Write-Token": "guess"},
            )
            for _ in range(12)
        ]
        assert guesses[0].status == 403 and guesses[-1].status == 429
