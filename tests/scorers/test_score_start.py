"""``score`` loads numpy with one BLAS thread and leaves the environment as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

_PROBE = """
import json, os
from pathlib import Path
from ragpulse_scorers.commands import score
score._one_blas_thread()
import numpy
print(json.dumps({"threads": len(list(Path("/proc/self/task").iterdir())),
                  "variable": os.environ.get(score.BLAS_THREADS)}))
"""


def _probe(**environment: str) -> dict[str, object]:
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], env={**env, **environment}, capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
def test_score_starts_numpy_without_a_thread_pool_and_passes_no_setting_on() -> None:
    assert _probe() == {"threads": 1, "variable": None}


def test_a_thread_count_the_user_chose_is_kept() -> None:
    assert _probe(OPENBLAS_NUM_THREADS="2")["variable"] == "2"
