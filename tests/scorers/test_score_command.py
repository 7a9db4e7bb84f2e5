"""``ragpulse score --once`` through the real command line."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pipeline_testing import insert_requests, log_rows, scored_traces
from ragpulse_core.cli import main
from ragpulse_core.store import Store
from ragpulse_scorers.gc_tuning import SCORER_GC_THRESHOLD
from ragpulse_scorers.pipeline.tick import run_tick
from serve_process import OutputLines, otlp_root_spans

RECORDING = "pipeline_testing:build_recording"
HERE = Path(__file__).resolve().parent


def test_score_once_runs_one_tick_and_prints_outcomes(
    store: Store, chdb_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    traces = insert_requests(store, 12, variants=("A", "B"))

    code = main(["score", "--once", "--dsn", chdb_dsn, "--scorer", RECORDING, "--sample-rate", "1"])

    out = capsys.readouterr().out
    assert code == 0
    assert "recording" in out and "scored" in out and "12" in out
    assert scored_traces(store) == sorted(traces)


def test_score_once_with_a_shard_scores_only_that_shard(store: Store, chdb_dsn: str) -> None:
    traces = insert_requests(store, 40)

    assert main(["score", "--once", "--dsn", chdb_dsn, "--scorer", RECORDING, "--shard", "1/2"]) == 0
    first = set(scored_traces(store))
    assert main(["score", "--once", "--dsn", chdb_dsn, "--scorer", RECORDING, "--shard", "0/2"]) == 0

    assert 0 < len(first) < len(traces)
    assert set(scored_traces(store)) == set(traces)
    assert len(log_rows(store)) == len(traces)


def test_a_tick_collects_garbage_seldom_and_leaves_the_process_its_own_thresholds(
    store: Store, chdb_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn holds tens of thousands of rows until they are written: collecting every 700 allocations
    rescanned them (3% of the judge's CPU); a process that embeds the command keeps its own settings."""
    insert_requests(store, 3)
    seen: list[tuple[int, int, int]] = []

    def watched(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.get_threshold())
        return run_tick(*args, **kwargs)

    monkeypatch.setattr("ragpulse_scorers.commands.score.run_tick", watched)
    before = gc.get_threshold()
    own = (700, 10, 10)  # CPython's defaults, whatever an earlier test in this process set
    gc.set_threshold(*own)
    try:
        assert main(["score", "--once", "--dsn", chdb_dsn, "--scorer", RECORDING]) == 0
        after = gc.get_threshold()
    finally:
        gc.set_threshold(*before)

    assert seen == [SCORER_GC_THRESHOLD] and after == own


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--scorer", "nonsense"], "known scorers"),
        (["--scorer", RECORDING, "--shard", "2/2"], "shard"),
        (["--scorer", RECORDING, "--sample-rate", "1.5"], "sample_rate"),
    ],
)
def test_bad_flags_exit_2_with_the_reason(
    chdb_dsn: str, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    code = main(["score", "--once", "--dsn", chdb_dsn, *flags])

    assert code == 2
    assert message in capsys.readouterr().err.replace("\n", " ")


def test_unreachable_store_exits_nonzero(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", "--once", "--dsn", "http://127.0.0.1:9/ragpulse", "--scorer", RECORDING])

    assert code == 1
    said = capsys.readouterr().err.splitlines()
    assert said == [
        "error: cannot connect to http://127.0.0.1:9/ragpulse: Connection refused",
        "start the database, or pass --dsn (store.dsn) naming one that runs",
    ]


@pytest.mark.slow
def test_serve_collects_and_scores_in_one_process_and_stops_on_sigterm(
    tmp_path: Path, migrated_copy: Callable[[Path], Path]
) -> None:
    config = tmp_path / "ragpulse.toml"
    config.write_text(
        f'[scorer]\nscorers = ["{RECORDING}"]\ninterval_s = 0.5\nsettle_delay_s = 0\n', encoding="utf-8"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    env["COLUMNS"] = "500"
    command = [sys.executable, "-m", "ragpulse_core.cli", "--config", str(config), "serve"]
    command += ["--dsn", f"chdb://{migrated_copy(tmp_path / 'db')}", "--port", "0", "--live-port", "0"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=tmp_path
    )
    try:
        output = OutputLines(process)
        started = output.wait_for("collector on ", 60)
        url = started.split("collector on ", 1)[1].split(";", 1)[0].strip()
        request = urllib.request.Request(
            f"{url}/v1/traces",
            data=otlp_root_spans(["ab" * 16]),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
        output.wait_for("recording: 1 scored", 60)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
