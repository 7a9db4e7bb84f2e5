"""``ragpulse migrate`` through the real command line entry point."""

from __future__ import annotations

import pytest
from ragpulse_core.cli import main
from ragpulse_core.store import Store


def test_migrate_on_a_current_schema_reports_it_is_up_to_date(
    store: Store, chdb_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate", "--dsn", chdb_dsn]) == 0
    assert "schema up to date" in capsys.readouterr().out


def test_migrate_against_an_unreachable_server_fails_with_exit_code_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["migrate", "--dsn", "http://127.0.0.1:9/ragpulse"]) == 1
    assert "migrate failed" in capsys.readouterr().out
