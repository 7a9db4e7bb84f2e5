"""The ``ragpulse`` command front: every part's commands, and help that loads no command's dependencies."""

from __future__ import annotations

import subprocess
import sys

import pytest
from ragpulse_core.cli import build_parser, main
from ragpulse_core.receivers import load_receiver

HEAVY_MODULES = (
    "openai",
    "httpx",
    "clickhouse_connect",
    "chdb",
    "apscheduler",
    "http.server",
    "ragpulse_collector.server",
    "ragpulse_collector.mapping",
    "ragpulse_scorers.pipeline",
    "ragpulse_scorers.models",
)


def test_help_lists_the_commands_of_every_installed_part() -> None:
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert {"migrate", "collector", "score", "serve", "report", "alerts", "demo", "eval", "pairwise"} <= set(
        commands
    )


def test_help_imports_no_command_dependencies() -> None:
    script = (
        "import sys\n"
        "from ragpulse_core.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    loaded = set(output.splitlines())
    assert "usage: ragpulse" in output
    assert [module for module in HEAVY_MODULES if module in loaded] == []


def test_version_names_the_installed_parts(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        main(["--version"])
    except SystemExit as exit_:
        assert exit_.code == 0
    printed = capsys.readouterr().out
    assert "ragpulse-core 0.1.0" in printed and "ragpulse-scorers" in printed


def test_a_command_needing_a_receiver_none_provides_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def needs_a_receiver(args: object) -> int:
        load_receiver("no-such-receiver")
        return 0

    parser = build_parser()
    monkeypatch.setattr("ragpulse_core.cli.build_parser", lambda: parser)
    parser.set_defaults(func=needs_a_receiver)

    assert main([]) == 1
    printed = capsys.readouterr().err
    assert "no trace receiver 'no-such-receiver' is installed" in printed
    assert "Traceback" not in printed and len(printed.strip().splitlines()) == 1
