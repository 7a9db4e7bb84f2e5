"""Recreate the foreign-trace corpus in ``tests/foreign/cases/`` from the real instrumentation libraries.

Each family environment is a venv cached under ``~/.cache/ragpulse-foreign/<env>`` (``RAGPULSE_FOREIGN_VENVS``
moves it), built from ``requirements/<env>.txt`` (then ``requirements/<env>.nodeps.txt`` with ``--no-deps``)
and rebuilt only when those files change. Each case runs its app in its environment as a subprocess, with the
stock OTLP/HTTP exporters pointed at a loopback capture endpoint and the ``openai`` client at a loopback fake
model, and writes ``cases/<name>/expected.json`` (from the app) and ``payloads/NNN-<signal>.pb``.

    python tests/foreign/capture/capture.py                  # every case
    python tests/foreign/capture/capture.py openlit-system-context haystack-native-content
    python tests/foreign/capture/capture.py --list

Standard library only: it runs under any Python 3.11.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from loopback import fake_model, otlp_sink
from plan import CASES, Case

HERE = Path(__file__).resolve().parent
APPS = HERE / "apps"
REQUIREMENTS = HERE / "requirements"
CASES_DIR = HERE.parent / "cases"
VENVS = Path(os.environ.get("RAGPULSE_FOREIGN_VENVS", Path.home() / ".cache" / "ragpulse-foreign"))
RUN_TIMEOUT_S = 300

# What every app gets: loopback endpoints, and each library's phone-home switched off (no network here).
BASE_ENVIRONMENT = {
    "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
    "OTEL_SERVICE_NAME": "helpdesk",
    "OPENAI_API_KEY": "sk-loopback",
    "NO_PROXY": "127.0.0.1,localhost",
    "TRACELOOP_TELEMETRY": "false",
    "HAYSTACK_TELEMETRY_ENABLED": "False",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "ANONYMIZED_TELEMETRY": "False",
    "PYTHONUNBUFFERED": "1",
}
PASSED_THROUGH = ("PATH", "HOME", "LANG", "TMPDIR", "SSL_CERT_FILE")


def _requirement_files(env: str) -> list[Path]:
    files = [REQUIREMENTS / f"{env}.txt", REQUIREMENTS / f"{env}.nodeps.txt"]
    return [f for f in files if f.exists()]


def ensure_venv(env: str) -> Path:
    """The environment's venv, (re)built when its requirement files changed since it was made."""
    files = _requirement_files(env)
    if not files:
        raise SystemExit(f"no requirements/{env}.txt")
    digest = hashlib.sha256(sys.version.encode())
    for file in files:
        digest.update(file.read_bytes())
    venv = VENVS / env
    stamp = venv / ".requirements-sha256"
    if stamp.exists() and stamp.read_text() == digest.hexdigest():
        return venv
    print(f"building {venv} ...", flush=True)
    shutil.rmtree(venv, ignore_errors=True)
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-qq"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "-r", str(files[0])], check=True)
    if len(files) > 1:
        subprocess.run([*pip, "--no-deps", "-r", str(files[1])], check=True)
    stamp.write_text(digest.hexdigest())
    print(f"built {env} in {time.monotonic() - started:.0f} s", flush=True)
    return venv


def _environment(case: Case, sink_url: str, model_url: str, expected: Path) -> dict[str, str]:
    environment = {key: os.environ[key] for key in PASSED_THROUGH if key in os.environ}
    environment |= BASE_ENVIRONMENT | {
        "OTEL_EXPORTER_OTLP_ENDPOINT": sink_url,
        "OPENAI_BASE_URL": model_url,
        "PYTHONPATH": str(APPS),
        "CORPUS_EXPECTED": str(expected),
        "CORPUS_ARGS": json.dumps(case.args),
        "CORPUS_CASE": json.dumps(case.truth_fields()),
    }
    return environment | case.env


def run_case(case: Case, venv: Path, sink_url: str, model_url: str) -> tuple[Path, bytes]:
    """Run one app to completion; return where it wrote its ground truth and its output."""
    expected = Path(tempfile.mkdtemp(prefix="corpus-")) / "expected.json"
    command = [str(venv / "bin" / part) for part in case.launcher] + [
        str(venv / "bin" / "python"),
        str(APPS / case.app),
    ]
    result = subprocess.run(
        command,
        env=_environment(case, sink_url, model_url, expected),
        capture_output=True,
        timeout=RUN_TIMEOUT_S,
        cwd=APPS,
    )
    if result.returncode != 0 or not expected.exists():
        tail = (result.stderr or result.stdout).decode(errors="replace")[-3000:]
        raise RuntimeError(f"{case.name}: app exited {result.returncode}\n{tail}")
    return expected, result.stderr


def write_case(case: Case, expected: Path, payloads: list[tuple[str, bytes]]) -> str:
    target = CASES_DIR / case.name
    shutil.rmtree(target, ignore_errors=True)
    (target / "payloads").mkdir(parents=True)
    shutil.move(expected, target / "expected.json")
    for number, (signal, body) in enumerate(payloads, 1):
        (target / "payloads" / f"{number:03d}-{signal}.pb").write_bytes(body)
    counts = {s: sum(1 for signal, _ in payloads if signal == s) for s in ("traces", "logs", "metrics")}
    size = sum(len(body) for _, body in payloads)
    return ", ".join(f"{n} {s}" for s, n in counts.items() if n) + f" ({size / 1024:.1f} KiB)"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("cases", nargs="*", help="case names (default: all)")
    parser.add_argument("--list", action="store_true", help="list the cases and their environments")
    options = parser.parse_args()
    chosen = [c for c in CASES if not options.cases or c.name in options.cases]
    unknown = set(options.cases) - {c.name for c in CASES}
    if unknown:
        raise SystemExit(f"unknown cases: {', '.join(sorted(unknown))}")
    if options.list:
        for case in chosen:
            print(f"{case.name:45} {case.env_name:20} {case.description}")
        return 0
    venvs = {env: ensure_venv(env) for env in dict.fromkeys(c.env_name for c in chosen)}
    failed = []
    with fake_model() as model_url, otlp_sink() as (sink_url, sink):
        for case in chosen:
            sink.take()
            try:
                expected, _ = run_case(case, venvs[case.env_name], sink_url, model_url)
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                print(f"FAILED {exc}", flush=True)
                failed.append(case.name)
                continue
            payloads = [(p.signal, p.body) for p in sink.take()]
            if not any(signal == "traces" for signal, _ in payloads):
                print(f"FAILED {case.name}: no spans were exported", flush=True)
                failed.append(case.name)
                continue
            print(f"{case.name}: {write_case(case, expected, payloads)}", flush=True)
        if sink.refused:
            print(f"paths the sink refused: {sorted(set(sink.refused))}")
    if failed:
        print(f"{len(failed)} failed: {' '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
