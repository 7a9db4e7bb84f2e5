"""The mistakes a new user makes, typed into the real ``ragpulse`` program: each gets one line saying what is
wrong and at most one more saying what to do, quickly, never a traceback, and nothing left behind (the
default database lives under ./.ragpulse, so a command that failed on its arguments must not have made it).
Options go before or after the command's name; ``serve`` takes every flag of the parts it runs."""

from __future__ import annotations

import argparse
import os
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ragpulse_core.cli import build_parser, main, parse_arguments

RAGPULSE = str(Path(sys.executable).with_name("ragpulse"))
# "Quickly" means the program does not sit waiting: ``eval support --judge openai`` without an endpoint once
# retried the public API for 29 s. The time a mistake spends waiting is its wall time less its CPU time scaled
# by how much slower than its CPU time the program starts right now, so a loaded machine (which stretches
# both) does not fail this and a retry loop (which sleeps) does.
WAITED_AT_MOST_S = 5


def seconds_waited(wall_s: float, cpu_s: float, cwd: Path) -> float:
    """Wall time the run spent neither computing nor queueing for a core behind the machine's load."""
    _, _, help_wall_s, help_cpu_s = run(["--help"], cwd)
    stretch = max(1.0, help_wall_s / max(help_cpu_s, 1e-3))
    return wall_s - cpu_s * stretch


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    directory = tmp_path / "work"
    directory.mkdir()
    (directory / "empty-token").write_text("\n")
    (directory / "a-file").write_text("not a directory")
    return directory


def children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(argv: list[str], cwd: Path) -> tuple[int, list[str], float, float]:
    """Exit code, non-blank output lines, wall seconds and CPU seconds of one ``ragpulse`` run."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAGPULSE_", "OPENAI_"))}
    env["COLUMNS"] = "300"  # one line stays one line
    started, cpu_before = time.monotonic(), children_cpu_s()
    done = subprocess.run(
        [RAGPULSE, *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    return done.returncode, lines, time.monotonic() - started, children_cpu_s() - cpu_before


MISTAKES = [
    (["serve", "--port", "99999"], "collector.port: Input should be less than or equal to 65535"),
    (
        ["serve", "--port", "{taken}"],
        "127.0.0.1:{taken} is already in use, so the collector cannot listen there: pass --port",
    ),
    (
        ["serve", "--port", "0", "--live-port", "{taken}"],
        "so the live page cannot listen there: pass --live-port",
    ),
    (
        ["serve", "--port", "0", "--grpc-port", "{taken}"],
        "so the collector's OTLP/gRPC receiver cannot listen there: pass --grpc-port",
    ),
    (
        ["serve", "--port", "4399", "--live-port", "4399"],
        "--port and --live-port are both 4399: give each its own port",
    ),
    (
        ["serve", "--host", "192.0.2.1", "--port", "4398"],
        "192.0.2.1 is not an address of this machine: pass --host",
    ),
    (["serve", "--scorer", "support"], "support needs an LLM judge endpoint: set OPENAI_BASE_URL"),
    (["serve", "--scorer", "nonsense"], "unknown scorer 'nonsense'; known scorers:"),
    (["serve", "--sample-rate", "2"], "scorer.sample_rate: Input should be less than or equal to 1"),
    (
        ["collector", "--port", "{taken}"],
        "is already in use, so the collector cannot listen there: pass --port",
    ),
    (
        ["collector", "--auth-token-file", "missing-token"],
        "auth token file missing-token does not exist: create it",
    ),
    (
        ["collector", "--auth-token-file", "empty-token"],
        "auth token file empty-token is empty: put the token in it",
    ),
    (["collector", "--auth-token", " "], "collector.auth_token is empty: set a token, or leave it unset"),
    (
        ["collector", "--spool-dir", "a-file/spool"],
        "--spool-dir a-file/spool: a-file is a file, not a directory",
    ),
    (
        ["score", "--once", "--scorer", "retrieval", "coverage"],
        "retrieval, coverage need an LLM judge endpoint",
    ),
    (["score", "--shard", "3/2"], "shard"),
    (
        ["eval", "support", "--data", "{data}", "--judge", "openai"],
        "--judge openai needs an LLM judge endpoint",
    ),
    (["eval", "support", "--data", "missing.jsonl"], "no such file or directory: missing.jsonl"),
    (["report", "--config", "missing.toml"], "config file not found: missing.toml"),
    (["--config", "missing.toml", "report"], "config file not found: missing.toml"),
    (["report", "--since", "yesterday"], "--since must look like 24h, 90m, 7d or an ISO timestamp"),
    (["report", "--colour"], "unrecognized arguments: --colour"),
    (["report"], "no ragpulse database at"),
    (["alerts", "--dsn", "http://127.0.0.1:{closed}/ragpulse"], "Connection refused"),
    (["migrate", "--dsn", "foo://x"], "unsupported store DSN 'foo://x'"),
    (["migrate", "--cluster", "c"], "--cluster needs a ClickHouse server DSN: pass --dsn http(s)://"),
    (["demo", "--requests", "0"], "--requests must be at least 1"),
    (["demo", "--inject", "2"], "must lie in [0, 1]"),
    (["--dsn", "chdb:///tmp/x", "demo"], "this command opens no store, so --dsn means nothing to it"),
    (["serv"], "invalid choice: 'serv'"),
]


@pytest.mark.parametrize(("argv", "expected"), MISTAKES, ids=[" ".join(argv) for argv, _ in MISTAKES])
def test_a_mistake_gets_one_line_and_what_to_do_quickly_and_leaves_nothing_behind(
    argv: list[str], expected: str, workdir: Path, taken_port: int
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    values = {"taken": str(taken_port), "closed": str(closed), "data": str(workdir / "a-file")}
    code, lines, wall_s, cpu_s = run([part.format(**values) for part in argv], workdir)

    assert code != 0
    assert not any("Traceback" in line for line in lines), "\n".join(lines)
    assert 1 <= len(lines) <= 2, "\n".join(lines)
    assert lines[0].startswith("error: ") or "error:" in lines[0], lines
    assert expected.format(**values) in lines[0]
    waited_s = seconds_waited(wall_s, cpu_s, workdir)
    assert waited_s < WAITED_AT_MOST_S, f"waited {waited_s:.1f} s of {wall_s:.1f} s"
    assert sorted(path.name for path in workdir.iterdir()) == ["a-file", "empty-token"]


def test_an_unexpected_failure_is_one_line_with_how_to_see_more(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(args: argparse.Namespace) -> int:
        raise RuntimeError("the widget fell over")

    parser = build_parser()
    monkeypatch.setattr("ragpulse_core.cli.build_parser", lambda: parser)
    _commands(parser)["report"].set_defaults(func=broken)

    assert main(["report", "--since", "1h"]) == 1
    said = capsys.readouterr().err.strip().splitlines()
    assert said == [
        "error: unexpected RuntimeError: the widget fell over",
        "for the traceback: ragpulse -v report --since 1h",
    ]
    assert main(["report", "-v"]) == 1
    said = capsys.readouterr().err
    assert "Traceback" in said and "the widget fell over" in said


@pytest.mark.parametrize(
    "argv",
    [
        ["--config", "x.toml", "--dsn", "chdb:///d", "-v", "report"],
        ["report", "--config", "x.toml", "--dsn", "chdb:///d", "-v"],
        ["--config", "x.toml", "report", "-v", "--dsn", "chdb:///d"],
        ["-v", "eval", "support", "--config", "x.toml", "--data", "d.jsonl"],
    ],
)
def test_global_options_go_before_or_after_the_command(argv: list[str]) -> None:
    args = parse_arguments(build_parser(), argv)
    assert args.config == Path("x.toml")
    assert args.verbose == 1
    if args.command == "report":
        assert args.dsn == "chdb:///d"


def test_verbose_counts_on_both_sides_and_options_left_out_keep_their_defaults() -> None:
    args = parse_arguments(build_parser(), ["-v", "score", "-v", "--once"])
    assert args.verbose == 2
    args = parse_arguments(build_parser(), ["score"])
    assert (args.config, args.dsn, args.verbose) == (None, None, 0)


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(subparsers.choices)


def _options(command: str) -> set[str]:
    parser = _commands(build_parser())[command]
    return {option for action in parser._actions for option in action.option_strings}


def test_serve_takes_every_flag_of_the_collector_and_the_scorer_under_the_same_names() -> None:
    serve = _options("serve")
    assert _options("collector") - {"--database"} <= serve, _options("collector") - serve
    # --once and a backfill's --rule/--since are one-off runs, not what a server does.
    once = {"--once", "--rule", "--since"}
    assert _options("score") - once <= serve, _options("score") - serve
    assert {"--spool-dir", "--auth-token", "--auth-token-file", "--grpc-port", "--max-body-bytes",
            "--sample-rate", "--scorer", "--interval", "--shard"} <= serve  # fmt: skip


def test_serve_flags_reach_the_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """What serve reads from its flags: every collector and scorer flag lands in its section."""
    from ragpulse_core.commands import collector_flags
    from ragpulse_scorers.cli_arguments import scorer_flags
    from ragpulse_scorers.settings import ScorersSettings

    token = tmp_path / "token"
    argv = ["serve", "--spool-dir", str(tmp_path / "spool"), "--auth-token-file", str(token),
            "--grpc-port", "4417", "--max-body-bytes", "2048", "--sample-rate", "0.25",
            "--scorer", "lexical", "--interval", "3", "--shard", "1/2"]  # fmt: skip
    args = parse_arguments(build_parser(), argv)
    settings = ScorersSettings.load(None, collector=collector_flags(args), scorer=scorer_flags(args))
    collector, scorer = settings.collector, settings.scorer
    assert (collector.spool_dir, collector.auth_token_file) == (tmp_path / "spool", token)
    assert (collector.grpc_port, collector.max_body_bytes) == (4417, 2048)
    assert (scorer.sample_rate, scorer.scorers) == (0.25, ["lexical"])
    assert (scorer.interval_s, scorer.shard) == (3, "1/2")


@pytest.mark.parametrize("activated", [False, True])
def test_hints_name_the_program_as_a_new_shell_can_run_it(activated: bool, tmp_path: Path) -> None:
    """Started as ``.venv/bin/ragpulse`` or through an activated venv, the hint says ``.venv/bin/ragpulse``:
    a new shell in the same directory has no activated venv, so a bare ``ragpulse`` would not be found."""
    bin_dir = Path(RAGPULSE).parent
    venv = bin_dir.parent
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if Path(p) != bin_dir)
    env["COLUMNS"] = "300"
    start = ["bash", "-c", f". {venv}/bin/activate && ragpulse report --colour"] if activated else [
        RAGPULSE, "report", "--colour"]  # fmt: skip
    said = subprocess.run(start, cwd=venv.parent, env=env, capture_output=True, text=True, check=False).stderr
    hint = said.strip().splitlines()[-1]
    assert hint == f"`{venv.name}/bin/ragpulse report --help` lists the options"

    again = subprocess.run(
        ["bash", "-c", hint.split("`")[1]],
        cwd=venv.parent, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert again.returncode == 0 and "usage:" in again.stdout


def test_the_example_service_with_no_collector_says_to_start_one(tmp_path: Path) -> None:
    """Without this check the exporter only logs retries and the run reports every request as sent."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    started, cpu_before = time.monotonic(), children_cpu_s()
    done = subprocess.run(
        [sys.executable, "-m", "ragpulse_example", "--requests", "2", "--endpoint", f"http://127.0.0.1:{closed}"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"error: nothing answers at http://127.0.0.1:{closed} (Connection refused): start `ragpulse serve`"
        " (or a collector) first, or pass --endpoint"
    ]
    wall_s, cpu_s = time.monotonic() - started, children_cpu_s() - cpu_before
    assert seconds_waited(wall_s, cpu_s, tmp_path) < WAITED_AT_MOST_S
