"""A judge for ``ragpulse score --rule`` run as a command: it notes each request it judges in a file and
presses Ctrl-C on the process (SIGINT, as a terminal sends it) at a chosen call."""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from ragpulse_core.store import Store
from ragpulse_scorers.models import RagRequest, Score
from ragpulse_scorers.settings import ScorersSettings

JUDGED = "RAGPULSE_TEST_JUDGED"
STOP_AT = "RAGPULSE_TEST_STOP_AT"


@dataclass
class NotingJudge:
    judged: Path
    stop_at: int
    name: str = "noting"
    version: str = "1"
    requires: tuple[str, ...] = ()
    calls: int = 0

    def score(self, request: RagRequest) -> list[Score]:
        self.calls += 1
        with self.judged.open("a", encoding="utf-8") as out:
            out.write(request.trace_id + "\n")
        if self.calls == self.stop_at:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)  # the main thread sees it while this request is still being judged
        return [Score(metric="noted", value=1.0)]


def build(settings: ScorersSettings, store: Store) -> NotingJudge:
    return NotingJudge(Path(os.environ[JUDGED]), int(os.environ.get(STOP_AT, "0")))
