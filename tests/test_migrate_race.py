"""Two `ragpulse migrate` runs started together on one embedded database: the loser says so in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

RACES = 2


@pytest.mark.parametrize("race", range(RACES))
def test_the_loser_of_two_concurrent_migrates_says_in_one_line_that_another_process_holds_it(
    tmp_path: Path, race: int
) -> None:
    ragpulse = str(Path(sys.executable).with_name("ragpulse"))
    database = tmp_path / "db"
    runs = [
        subprocess.Popen(
            [ragpulse, "migrate", "--dsn", f"chdb://{database}"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(2)
    ]
    outcomes = [(run.wait(timeout=180), run.stdout.read() if run.stdout else "") for run in runs]
    assert any(code == 0 for code, _ in outcomes), outcomes
    for code, said in outcomes:
        if code != 0:
            lines = [line for line in said.splitlines() if line.strip()]
            assert lines == [
                f"migrate failed: another process holds the chDB database {database} (chDB opens a path in"
                " one process at a time): stop it, or point both at a ClickHouse server"
            ]
