"""``ragpulse report`` over the session database."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from ragpulse_core.cli import main
from ragpulse_core.schema import migrate
from ragpulse_core.store import Store
from report_data import insert_request, insert_scores


def test_report_prints_tables_and_writes_html(
    store: Store, chdb_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    traced = insert_request(store, 1, variant="A", age=timedelta(minutes=5))
    insert_scores(store, traced, hallucinated=True, support=0.2)
    html = tmp_path / "out" / "report.html"
    assert main(["report", "--dsn", chdb_dsn, "--html", str(html), "--since", "1h"]) == 0
    out = capsys.readouterr().out
    assert "Hallucination rate per variant" in out and "100.0%" in out
    assert "<svg" in html.read_text(encoding="utf-8")


def test_report_window_excludes_older_requests(
    store: Store, chdb_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    insert_request(store, 1, variant="A", age=timedelta(hours=2))
    assert main(["report", "--dsn", chdb_dsn, "--since", "1h"]) == 0
    assert "No RAG requests in this window" in capsys.readouterr().out


def test_report_rejects_a_malformed_since(chdb_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--dsn", chdb_dsn, "--since", "last tuesday"]) == 2
    assert "--since" in capsys.readouterr().err


def test_report_with_the_store_down_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--dsn", "http://default:@127.0.0.1:1/ragpulse"]) == 1
    assert "cannot read the ragpulse tables" in capsys.readouterr().out


@pytest.fixture
def database_before_an_upgrade(chdb_dsn: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A database whose tables an older version made (migrated through 0017), chosen as the configured one."""
    name = f"older_{uuid.uuid4().hex[:8]}"
    store = Store(chdb_dsn, name)
    migrate(store, ttl_days=30, through=17)
    monkeypatch.setenv("RAGPULSE_STORE__DATABASE", name)
    yield name
    store.command(f"DROP DATABASE IF EXISTS {name}", use_database=False)
    store.close()


@pytest.mark.parametrize("command", [["report"], ["requests", "--unscored"]])
def test_reading_tables_older_than_this_version_says_to_migrate(
    database_before_an_upgrade: str, chdb_dsn: str, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--dsn", chdb_dsn]) == 1
    said = capsys.readouterr().out
    assert "are at schema 0017" in " ".join(said.split()) and "migrate" in said
    assert "UNKNOWN_IDENTIFIER" not in said and "Traceback" not in said
