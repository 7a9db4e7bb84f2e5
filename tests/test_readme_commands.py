"""Every shell command in README.md and the documentation pages made from it (:data:`PAGES`) is run here, or
in the quick-start walk, or checked another way that is named with its reason. A command added to them without
a check fails the first test.

The README's commands run in a shell with the venv's ``bin`` first on PATH (what its ``. .venv/bin/activate``
does) and without any ``RAGPULSE_*``, ``OTEL_*`` or ``OPENAI_*`` variable of the test run. Where a command
names something this machine must not or cannot touch, :data:`SUBSTITUTIONS` says what replaces it and why.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from ragpulse_core.cli import build_parser, parse_arguments
from ragpulse_core.store import Store
from ragpulse_scorers.evaluation.shipped import SHIPPED

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = (
    README,
    *(
        DOCS / f"{page}.md"
        for page in (
            "quick-start", "instrumenting", "collector", "scoring", "people", "dashboards", "scale",
            "performance", "measuring-judges", "configuration",
        )
    ),
)  # fmt: skip
"""The README and the pages its sections moved to; the other pages' authors check their own commands."""
VENV_BIN = Path(sys.executable).parent
SHARED_DATA = ROOT.parent / "shared" / "data"
START_TIMEOUT_S = 90
STOP_TIMEOUT_S = 30

WALKED = "run by tests/test_quickstart_walk.py in a fresh clone, fresh venv and fresh shells"
RUN = "run here"
LLM_ENDPOINT = "needs an LLM endpoint ('...' stands for yours): the parser takes it as written"


@dataclass(frozen=True)
class Check:
    how: str
    reason: str = ""


CHECKS: dict[str, Check] = {
    "make install": Check(WALKED),
    ". .venv/bin/activate": Check(WALKED),
    "ragpulse demo": Check(WALKED),
    "ragpulse serve": Check(WALKED),
    "python -m ragpulse_example --requests 20": Check(WALKED),
    "ragpulse requests": Check(WALKED),
    "ragpulse report": Check(WALKED),
    "make test": Check("make -n test", "the suite itself: running it from inside itself would recurse"),
    "make docs": Check("make -n docs", "tests/test_docs.py builds the site the same way, strictly"),
    "make test-llm": Check(
        "make -n test-llm", "tens of minutes of a model generating on the CPU; run on its own, see Judging"
    ),
    "make bench": Check(
        "make -n bench, and every benchmark it runs exists",
        "minutes of CPU on a shared machine (bench_queries builds 1,000,000 requests); its numbers are the"
        " README's tables",
    ),
    "OTEL_EXPORTER_OTLP_ENDPOINT=http://ragpulse-host:4318 OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf"
    " python app.py": Check(
        RUN, "app.py stands for your application: an OpenInference-traced LlamaIndex app plays it"
    ),
    "ragpulse migrate   --dsn chdb:///var/lib/ragpulse": Check(RUN),
    "ragpulse collector --dsn chdb:///var/lib/ragpulse --host 0.0.0.0 --port 4318": Check(RUN),
    "ragpulse collector --dsn http://user:pass@clickhouse:8123/ragpulse --spool-dir /var/spool/ragpulse":
        Check(RUN, "no ClickHouse server here: the collector spools, which is what the line is for"),
    "ragpulse collector --grpc-port 4317 --auth-token-file /run/secrets/ragpulse-token": Check(RUN),
    "GRAFANA_ADMIN_PASSWORD=choose-one make compose-config": Check(RUN),
    "GRAFANA_ADMIN_PASSWORD=choose-one docker compose up --build": Check(
        "docker-compose config on the same file with the same variable",
        "needs a Docker engine, which this machine lacks",
    ),
    "export OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_API_KEY=ollama RAGPULSE_JUDGE_MODEL=qwen2.5:14b":
        Check(RUN, "with the next line, in one shell"),
    "ragpulse requests --unscored --since 24h": Check(
        RUN, "on a database that `ragpulse migrate` made in an empty directory (the default DSN)"
    ),
    "ragpulse assembly preview --service support-bot --last 20": Check(
        RUN, "on a database that `ragpulse migrate` made: it says there are no traces of the service"
    ),
    "ragpulse assembly rerun --since 24h": Check(
        RUN, "on a database that `ragpulse migrate` made: it reads no trace again and changes nothing"
    ),
    "ragpulse score --scorer lexical support coverage retrieval": Check(
        RUN, "on an empty database: it starts, names its scorers and stops on SIGTERM; no judge is called"
    ),
    "ragpulse rules preview --since 24h": Check(
        RUN, "with the README's [[rules]] as ragpulse.toml, on a database `ragpulse migrate` made"
    ),
    "ragpulse score --rule checkout-support --since 7d": Check(
        RUN, "likewise: the backfill finds nothing to judge, so no judge endpoint is called"
    ),
    'ragpulse label 4bf92f3577b34da6a3ce929d0e0e4736 hallucinated --note "invented a refund fee"': Check(
        RUN, "on a database holding that request (seeded through the Store), with the three lines below"
    ),
    "ragpulse labels import labels.jsonl": Check(RUN, "labels.jsonl labels a second seeded request"),
    "ragpulse export --labelled --since 7d > set.jsonl": Check(RUN),
    "ragpulse eval support --data set.jsonl --judge lexical": Check(RUN),
    "ragpulse eval support --data ragtruth_qa_dev --judge lexical --split holdout": Check(RUN),
    "ragpulse eval support --data ../shared/data/lfqa_sentences.jsonl --judge lexical --json": Check(RUN),
    "OPENAI_BASE_URL=... OPENAI_API_KEY=... ragpulse eval support --data ragtruth_qa_dev"
    " --judge openai --model gpt-4o-mini --workers 4 --json": Check("parsed", LLM_ENDPOINT),
    "OPENAI_BASE_URL=... OPENAI_API_KEY=... ragpulse eval subq-types --data ../shared/data/subq_types.jsonl"
    " --model gpt-4o": Check("parsed", LLM_ENDPOINT),
    "OPENAI_BASE_URL=... OPENAI_API_KEY=... ragpulse eval subq-coverage"
    " --data ../shared/data/subq_coverage.jsonl --model gpt-4o": Check("parsed", LLM_ENDPOINT),
}  # fmt: skip

SUBSTITUTIONS = {
    "/var/lib/ragpulse": "a temporary directory: system paths are not a test's to write",
    "/var/spool/ragpulse": "a temporary directory, likewise",
    "/run/secrets/ragpulse-token": "a temporary file holding a token",
    "--host 0.0.0.0": "--host 127.0.0.1: no test listens beyond loopback",
    "4318, 4317": "free ports: other processes on a shared machine may hold these",
    "clickhouse:8123": "a closed loopback port: no ClickHouse server runs here, and no test resolves names",
    "ragpulse-host:4318": "the test's collector",
}


def pages_text() -> str:
    return "\n".join(page.read_text(encoding="utf-8") for page in PAGES)


def readme_commands(text: str | None = None) -> list[str]:
    """Every command of the pages' ``sh`` blocks: continuation lines joined, comments dropped."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text if text is not None else pages_text(), re.S):
        for line in re.sub(r"\\\n\s*", "", block).splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith("#"):
                commands.append(command)
    return commands


def test_every_readme_command_has_a_check() -> None:
    commands = readme_commands()
    assert sorted(set(commands)) == sorted(CHECKS), "a command without a check here, or a stale one"
    assert all(check.reason for check in CHECKS.values() if check.how not in (RUN, WALKED))


def readme_shell_env(**extra: str) -> dict[str, str]:
    """A shell after ``. .venv/bin/activate``, with none of the test run's ragpulse, OTel, judge settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAGPULSE_", "OTEL_", "OPENAI_"))}
    env["PATH"] = os.pathsep.join([str(VENV_BIN), env.get("PATH", "")])
    env.update(COLUMNS="200", NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost", **extra)
    return env


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run_shell(
    script: str, cwd: Path, env: dict[str, str], timeout_s: float = 120
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["bash", "-c", f"set -euo pipefail\n{script}"],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout_s, check=False,
    )  # fmt: skip
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


@dataclass
class LongRunning:
    process: subprocess.Popen[str]
    log: Path

    def wait_for(self, wanted: str) -> str:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            said = self.log.read_text()
            if wanted in said:
                return said
            assert self.process.poll() is None, said
            time.sleep(0.2)
        raise AssertionError(f"no {wanted!r} within {START_TIMEOUT_S} s: {self.log.read_text()}")

    def stop(self) -> str:
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(timeout=STOP_TIMEOUT_S) == 0, self.log.read_text()
        said = self.log.read_text()
        assert "Traceback" not in said, said
        return said


@pytest.fixture
def long_running(tmp_path: Path) -> Iterator[type[LongRunning]]:
    started: list[LongRunning] = []

    def start(script: str, cwd: Path, env: dict[str, str]) -> LongRunning:
        log = tmp_path / f"long-running-{len(started)}.log"
        with log.open("w") as output:
            process = subprocess.Popen(
                ["bash", "-c", script], cwd=cwd, env=env, stdout=output, stderr=subprocess.STDOUT,
                text=True, start_new_session=True,
            )  # fmt: skip
        started.append(LongRunning(process, log))
        return started[-1]

    yield start  # type: ignore[misc]
    for running in started:
        if running.process.poll() is None:
            os.killpg(running.process.pid, signal.SIGKILL)
            running.process.wait()


def substituted(command: str, tmp_path: Path) -> str:
    """The README command with :data:`SUBSTITUTIONS` applied."""
    token = tmp_path / "token"
    token.write_text("readme-token\n")
    closed = free_port()
    replaced = (
        command.replace("/var/lib/ragpulse", str(tmp_path / "var-lib-ragpulse"))
        .replace("/var/spool/ragpulse", str(tmp_path / "spool"))
        .replace("/run/secrets/ragpulse-token", str(token))
        .replace("--host 0.0.0.0", "--host 127.0.0.1")
        .replace("--port 4318", f"--port {free_port()}")
        .replace("--grpc-port 4317", f"--grpc-port {free_port()}")
        .replace("clickhouse:8123", f"127.0.0.1:{closed}")
    )
    return replaced


@pytest.fixture(scope="module")
def migrated_directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty directory after `ragpulse migrate` (the default DSN, ./.ragpulse/chdb), made once: the lines
    that start from such a database get a copy (:func:`copy_of_migrated`), not a migration of their own."""
    directory = tmp_path_factory.mktemp("migrated")
    done = run_shell("ragpulse migrate", directory, readme_shell_env())
    assert done.returncode == 0 and "migrations applied" in done.stdout, done.stdout + done.stderr
    return directory


def copy_of_migrated(migrated_directory: Path, destination: Path) -> None:
    """The migrated database into ``destination``: chDB keeps a closed database as plain files (its tables
    linked by relative symlinks, kept as links), so the copy is that database, costing milliseconds where a
    fresh migration of every table costs seconds."""
    shutil.copytree(migrated_directory / ".ragpulse", destination / ".ragpulse", symlinks=True)


def test_make_test_runs_the_whole_suite_one_worker_per_core() -> None:
    done = subprocess.run(["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True, check=True)
    # Among the install lines (a stale venv) and make's own "Entering directory" (when make test runs this).
    (line,) = [line for line in done.stdout.splitlines() if " -m pytest " in line]
    command = line.split()
    assert ".venv/bin/python" in command[0] and command[1:4] == ["-m", "pytest", "-q"], done.stdout
    assert command[-1] == "tests" and "-n auto" in done.stdout and "-m" not in command[4:], done.stdout


def test_make_docs_builds_the_site_strictly() -> None:
    done = subprocess.run(["make", "-n", "docs"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert ".venv/bin/mkdocs build --strict --site-dir site" in done.stdout, done.stdout
    assert "/site/" in (ROOT / ".gitignore").read_text().splitlines()


def test_make_test_llm_runs_only_the_local_model_tests() -> None:
    done = subprocess.run(["make", "-n", "test-llm"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert ".venv/bin/python -m pytest -q -m llm tests" in done.stdout
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "llm", "tests/llm"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert re.search(r"^\d+ tests? collected", collected.stdout, re.M), collected.stdout


def test_make_bench_runs_every_benchmark_there_is() -> None:
    done = subprocess.run(["make", "-n", "bench"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert ".venv/bin/python benchmarks/run.py" in done.stdout
    run_py = (ROOT / "benchmarks" / "run.py").read_text()
    named = re.findall(r'"(bench_\w+)"', run_py)
    on_disk = sorted(path.stem for path in (ROOT / "benchmarks").glob("bench_*.py"))
    assert sorted(set(named)) == on_disk
    for name in on_disk:
        assert re.search(r"^def main\(", (ROOT / "benchmarks" / f"{name}.py").read_text(), re.MULTILINE), name


def test_the_migrate_and_collector_lines_run(tmp_path: Path, long_running: type[LongRunning]) -> None:
    migrate, *collectors = [command for command in CHECKS if command.startswith("ragpulse migrate")] + [
        command for command in CHECKS if command.startswith("ragpulse collector")
    ]
    env = readme_shell_env(RAGPULSE_COLLECTOR__PORT=str(free_port()))
    done = run_shell(substituted(migrate, tmp_path), tmp_path, env)
    assert done.returncode == 0, done.stderr
    assert "migrations applied" in done.stdout
    for command in collectors:
        running = long_running(f"exec {substituted(command, tmp_path)}", tmp_path, env)  # type: ignore[call-arg]
        said = running.wait_for("writing to")  # the line the command prints once it listens
        if "clickhouse:8123" in command:
            assert "store unreachable, spooling to" in said
        if "--grpc-port" in command:
            assert "and OTLP/gRPC on port" in said
        assert "stopping" in running.stop()


def test_the_opentelemetry_only_line_sends_an_openinference_app_to_the_collector(
    tmp_path: Path, store: Store, collector: object
) -> None:
    (tmp_path / "app.py").write_text(
        textwrap.dedent(
            """
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import BatchSpanProcessor
            from ragpulse_example.frameworks import llamaindex_app
            from ragpulse_example.frameworks.corpus import QUESTIONS

            provider = TracerProvider()  # the stock exporter reads the OTEL_* variables
            provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
            print(llamaindex_app.run(QUESTIONS[0].text, provider, instrumentation="openinference"))
            provider.shutdown()
            """
        )
    )
    (command,) = [command for command in CHECKS if command.endswith("python app.py")]
    address = collector.url.removeprefix("http://")  # type: ignore[attr-defined]
    done = run_shell(command.replace("ragpulse-host:4318", address), tmp_path, readme_shell_env())
    assert done.returncode == 0, done.stderr
    kinds = store.query(
        f"SELECT DISTINCT SpanAttributes['openinference.span.kind'] FROM {store.table('otel_traces')}"
    )
    assert {"CHAIN", "RETRIEVER", "LLM"} <= {kind for (kind,) in kinds}


def test_make_compose_config_and_the_compose_up_line(tmp_path: Path) -> None:
    if subprocess.run(["which", "docker-compose"], capture_output=True, check=False).returncode != 0:
        pytest.skip("docker-compose not installed (apt-get install docker-compose)")
    (command,) = [command for command in CHECKS if command.endswith("make compose-config")]
    done = run_shell(command, ROOT, readme_shell_env())
    assert done.returncode == 0, done.stderr
    assert "docker-compose.yml: valid" in done.stdout
    (up,) = [command for command in CHECKS if command.endswith("docker compose up --build")]
    variable = up.split()[0]
    checked = run_shell(f"{variable} python3 docker/compose_check.py", ROOT, readme_shell_env())
    assert checked.returncode == 0, checked.stderr


def test_the_unscored_listing_line_runs_as_typed(tmp_path: Path, migrated_directory: Path) -> None:
    (listing,) = [command for command in CHECKS if command.startswith("ragpulse requests --unscored")]
    copy_of_migrated(migrated_directory, tmp_path)
    done = run_shell(listing, tmp_path, readme_shell_env())
    assert done.returncode == 0, done.stderr
    assert "no unscorable requests" in " ".join(done.stdout.split()).lower(), done.stdout


def test_the_assembly_preview_line_runs_as_typed(tmp_path: Path, migrated_directory: Path) -> None:
    (line,) = [command for command in CHECKS if command.startswith("ragpulse assembly preview")]
    copy_of_migrated(migrated_directory, tmp_path)
    done = run_shell(line, tmp_path, readme_shell_env())
    assert done.returncode == 0, done.stderr
    assert "no traces of service 'support-bot'" in " ".join(done.stdout.split()).lower(), done.stdout


def test_the_assembly_rerun_line_runs_as_typed(tmp_path: Path, migrated_directory: Path) -> None:
    (line,) = [command for command in CHECKS if command.startswith("ragpulse assembly rerun")]
    copy_of_migrated(migrated_directory, tmp_path)
    done = run_shell(line, tmp_path, readme_shell_env())
    assert done.returncode == 0, done.stderr
    assert "0 traces read again: 0 requests changed" in " ".join(done.stdout.split()), done.stdout


def test_the_rules_lines_run_as_typed_with_the_readmes_rules(
    tmp_path: Path, migrated_directory: Path
) -> None:
    (example,) = [
        block
        for block in re.findall(r"```toml\n(.*?)```", (DOCS / "scoring.md").read_text(), re.S)
        if "[[rules]]" in block
    ]
    # The rules name LLM judges, which need an endpoint: a closed port, never called (nothing to judge).
    endpoint = '[judge]\nbase_url = "http://127.0.0.1:9/v1"\n'
    (tmp_path / "ragpulse.toml").write_text(endpoint + example, encoding="utf-8")
    preview, backfill = [
        command for command in CHECKS if command.startswith(("ragpulse rules", "ragpulse score --rule"))
    ]
    copy_of_migrated(migrated_directory, tmp_path)
    done = run_shell(f"{preview}\n{backfill}", tmp_path, readme_shell_env())
    assert done.returncode == 0, done.stderr
    printed = " ".join(done.stdout.split())
    assert "checkout-support" in printed and "fusion-coverage" in printed and "no stored request" in printed
    assert "backfill of rule checkout-support" in printed, printed


def test_the_scoring_lines_start_the_named_judges_and_stop_on_sigterm(
    tmp_path: Path, long_running: type[LongRunning]
) -> None:
    export, score = [c for c in CHECKS if "qwen2.5:14b" in c or "--scorer lexical" in c]
    running = long_running(f"{export}\nexec {score}", tmp_path, readme_shell_env())  # type: ignore[call-arg]
    running.wait_for("scoring with lexical, support, coverage, retrieval every 10 s")
    running.stop()


# Span ids chosen inside the review queue's random share: the figures, and so the default export, count
# reviewer labels there only.
SEED_TWO_REQUESTS = """
import json
from datetime import UTC, datetime, timedelta
from ragpulse_core.store import Store, default_dsn
store = Store(default_dsn())
context = json.dumps([{"id": "refunds", "text": "Refunds are paid within 14 days. No fee is charged."}])
at = datetime.now(UTC) - timedelta(hours=1)
store.insert(
    store.table("ragpulse_requests"),
    [["4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b9", at, "shop", "faq", "A", "Refund fee?",
      "A refund fee of 12 euros applies, paid by Western Union.", context],
     ["a" * 32, "00f067aa0ba902bd", at, "shop", "faq", "A", "Refund time?",
      "Refunds are paid within 14 days.", context]],
    ["TraceId", "SpanId", "Timestamp", "ServiceName", "Pipeline", "Variant", "Question", "Answer", "Context"],
)
"""


def test_the_labelling_lines_label_export_and_evaluate(tmp_path: Path, migrated_directory: Path) -> None:
    lines = [
        c
        for c in CHECKS
        if c.startswith(("ragpulse label", "ragpulse export", "ragpulse eval support --data set"))
    ]
    assert len(lines) == 4
    (tmp_path / "seed.py").write_text(SEED_TWO_REQUESTS)
    (tmp_path / "labels.jsonl").write_text(json.dumps({"trace_id": "a" * 32, "label": "grounded"}) + "\n")
    copy_of_migrated(migrated_directory, tmp_path)
    done = run_shell("\n".join(["python seed.py", *lines]), tmp_path, readme_shell_env())
    assert done.returncode == 0, done.stdout + done.stderr
    exported = [json.loads(line) for line in (tmp_path / "set.jsonl").read_text().splitlines()]
    assert sorted((row["trace_id"][:4], row["hallucinated"]) for row in exported) == [
        ("4bf9", 1),
        ("aaaa", 0),
    ]
    assert re.search(r"response\s*│\s*2/2\s*│\s*1\.000", done.stdout), done.stdout


@pytest.fixture
def shared_data_present() -> None:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"{SHARED_DATA} not present (the README's ../shared/data)")


def test_the_shipped_set_reproduces_the_readme_numbers_from_a_plain_clone(tmp_path: Path) -> None:
    (holdout,) = [command for command in CHECKS if "--judge lexical --split" in command]
    # From a directory with no ../shared/data beside it: the set ships with ragpulse.
    done = run_shell(holdout, tmp_path, readme_shell_env())
    assert done.returncode == 0, done.stderr
    # The README's table: RAGTruth-QA held-out half, n 204, balanced accuracy 0.804.
    assert re.search(r"response\s*│\s*204/204\s*│\s*0\.804", done.stdout), done.stdout


def test_the_lfqa_eval_line_reproduces_the_readme_numbers(shared_data_present: None) -> None:
    (lfqa,) = [command for command in CHECKS if "lfqa_sentences" in command]
    done = run_shell(lfqa, ROOT, readme_shell_env())
    assert done.returncode == 0, done.stderr
    assert '"n": 300' in done.stdout and '"balanced_accuracy": 0.6883' in done.stdout


@pytest.mark.parametrize("command", [c for c, check in CHECKS.items() if check.how == "parsed"])
def test_the_llm_eval_lines_parse_as_written(command: str) -> None:
    words = shlex.split(command)
    argv = words[words.index("ragpulse") + 1 :]
    args = parse_arguments(build_parser(), argv)
    assert args.func is not None and (args.data.suffix == ".jsonl" or args.data.name in SHIPPED)


COMMANDS = "migrate|collector|serve|score|report|alerts|demo|eval|pairwise|requests|assembly|rules"
INLINE = re.compile(rf"`(ragpulse (?:--?[\w-]+ (?:[^-\s`]\S* )?)*(?:{COMMANDS})\b[^`]*)`")
PLACEHOLDERS = {"i/N": "0/2", "FILE": "report.html", "NAME": "cluster", "http://…": "http://h:8123/db"}


def test_every_ragpulse_command_the_prose_mentions_parses() -> None:
    """The README's inline commands (``ragpulse report [--since 24h] [--html FILE]`` ...) take the options
    they show; placeholders get a value and ``[...]`` is optional syntax."""
    mentioned = sorted(set(INLINE.findall(pages_text())))
    assert len(mentioned) >= 8
    for text in mentioned:
        for placeholder, value in PLACEHOLDERS.items():
            text = text.replace(placeholder, value)
        words = shlex.split(text.replace("[", "").replace("]", "").replace("…", ""))
        if len(words) == 2:  # the command alone, as a name
            assert words[1] in COMMANDS.split("|")
            continue
        parse_arguments(build_parser(), words[1:])
