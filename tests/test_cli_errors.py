"""What a person sees when a command cannot do its job: one line naming the problem, a non-zero exit, no
traceback, and nothing created by a command that only reads."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from ragpulse_core.cli import main
from ragpulse_dashboards.alerts import AlertKey, AlertRecord
from ragpulse_dashboards.alerts.state import FIRING, RESOLVED
from ragpulse_dashboards.commands.alerts import listing
from rich.console import Console


@pytest.fixture
def in_empty_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in ("RAGPULSE_CONFIG", "RAGPULSE_STORE__DSN"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def _one_line_failure(code: int, capsys: pytest.CaptureFixture[str]) -> str:
    """The failure's one line (a command may have said what it did before, like migrations applied)."""
    captured = capsys.readouterr()
    assert code != 0
    assert "Traceback" not in captured.out + captured.err
    said = [line for line in (captured.out + captured.err).splitlines() if "error" in line.lower()]
    assert len(said) == 1, captured.out + captured.err
    last = (captured.err or captured.out).strip().splitlines()[-1]
    assert last == said[0]
    return last


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["migrate", "--dsn", "chdb:///sys/x"], "cannot create the chDB directory /sys/x"),
        (["report", "--dsn", "chdb:///sys/x"], "no ragpulse database at /sys/x"),
        (["report", "--dsn", "/tmp/db"], "unsupported store DSN '/tmp/db' (an embedded database there is chdb:///tmp/db)"),
        (["migrate", "--dsn", "postgres://x"], "unsupported store DSN 'postgres://x'"),
        (["alerts", "--dsn", "postgres://u:secret@x/db"], "unsupported store DSN 'postgres://u:***@x/db'"),
        (["score", "--once", "--dsn", "mysql://x"], "unsupported store DSN 'mysql://x'"),
        (["collector", "--dsn", "chdb://"], "names no path"),
    ],
)  # fmt: skip
def test_a_dsn_the_store_cannot_open_is_one_line(
    argv: list[str], expected: str, in_empty_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _one_line_failure(main(argv), capsys)
    assert expected in line
    assert "secret" not in line


def test_a_dsn_that_is_a_file_is_named(in_empty_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database = in_empty_dir / "db"
    database.write_text("not a database")
    line = _one_line_failure(main(["migrate", "--dsn", f"chdb://{database}"]), capsys)
    assert f"the chDB path {database} is a file" in line


def test_read_only_commands_create_no_directory(
    in_empty_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = in_empty_dir / "nowhere" / "db"
    line = _one_line_failure(main(["report", "--dsn", f"chdb://{missing}"]), capsys)
    assert "no ragpulse database" in line and "Run `ragpulse serve`" in line
    assert main(["alerts", "--dsn", f"chdb://{missing}"]) == 0
    assert "no alerts recorded" in capsys.readouterr().out
    assert main(["report"]) != 0  # the default ./.ragpulse/chdb
    capsys.readouterr()
    assert list(in_empty_dir.iterdir()) == []


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ("[store]\nttl_days = = 3\n", "ragpulse.toml: not valid TOML: Invalid value (at line 2, column 12)"),
        ("[stor]\ndsn = 'chdb:///tmp/x'\n", "ragpulse.toml: unknown section [stor]"),
        ("[store]\ndns = 'chdb:///tmp/x'\n", "store.dns: Extra inputs are not permitted"),
        ("[store]\ndsn = 'localhost:8123'\n", "unsupported store DSN 'localhost:8123'"),
        (
            "[alerts]\nhallucination_threshold = 2\n",
            "alerts.hallucination_threshold: Input should be less than",
        ),
    ],
)
def test_a_bad_config_file_is_named_with_what_is_wrong(
    config: str, expected: str, in_empty_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_empty_dir / "ragpulse.toml").write_text(config)
    line = _one_line_failure(main(["report"]), capsys)
    assert expected in line
    assert "ragpulse.toml" in line


def test_a_collector_port_in_use_is_one_line(
    chdb_dsn: str, taken_port: int, in_empty_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _one_line_failure(main(["collector", "--dsn", chdb_dsn, "--port", str(taken_port)]), capsys)
    assert f"127.0.0.1:{taken_port} is already in use, so the collector cannot listen there" in line


def test_serve_names_the_port_in_use(
    chdb_dsn: str, taken_port: int, in_empty_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["serve", "--dsn", chdb_dsn, "--port", "0", "--live-port", str(taken_port)]
    line = _one_line_failure(main(argv), capsys)
    assert f"127.0.0.1:{taken_port} is already in use, so the live page cannot listen there" in line
    argv = ["serve", "--dsn", chdb_dsn, "--port", str(taken_port), "--live-port", "0"]
    line = _one_line_failure(main(argv), capsys)
    assert f"127.0.0.1:{taken_port} is already in use, so the collector cannot listen there" in line


def _alert(variant: str, state: str) -> AlertRecord:
    now = datetime.now(UTC)
    return AlertRecord(
        alert_id=f"alert-{variant}",
        key=AlertKey("hallucination_rate", "checkout-assistant", variant, "lexical"),
        state=state,
        fired_at=now - timedelta(hours=2),
        resolved_at=None if state == FIRING else now - timedelta(hours=1),
        updated_at=now,
        value=0.45,
        lower=0.381,
        upper=0.521,
        samples=200,
        threshold=0.2,
        summary=f"hallucination rate 45.0% for service checkout-assistant, variant {variant}, scorer lexical"
        " (lower bound 38.1% above the threshold 20.0%)",
        notify_error="webhook answered 500",
    )


def test_alerts_listing_is_readable_at_80_columns() -> None:
    buffer = io.StringIO()
    Console(file=buffer, width=80, color_system=None).print(
        listing([_alert("B", FIRING), _alert("A", RESOLVED)])
    )
    lines = buffer.getvalue().splitlines()
    assert len(lines) <= 16, "\n".join(lines)
    assert all(len(line) <= 80 for line in lines)
    text = buffer.getvalue()
    assert "hallucination_rate · checkout-assistant · B · lexical" in text
    assert "0.450 [0.381–0.521], n=200, threshold 0.200" in text
    assert "1 firing, 1 resolved" in text


def test_a_database_another_process_holds_is_said_in_one_line_before_chdb_complains(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "held"
    ragpulse = str(Path(sys.executable).with_name("ragpulse"))
    holder = subprocess.Popen(
        [ragpulse, "collector", "--dsn", f"chdb://{database}", "--port", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not (database / "status").exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1)  # the status file is written, then locked
        capfd.readouterr()
        assert main(["report", "--dsn", f"chdb://{database}"]) == 1
        said = capfd.readouterr()
        assert f"another process holds the chDB database {database}" in said.out
        assert said.err == "" and "Cannot lock file" not in said.out  # chDB never got to print its error
    finally:
        holder.terminate()
        holder.wait(timeout=60)
