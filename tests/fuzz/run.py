"""The long fuzzing run: ``python tests/fuzz/run.py --minutes 10``.

The same examples as the suite's short run (hostile OTLP spans and log records through the real collector,
labels files, rules, judge replies, then one scoring tick), for as long as asked, on a database of its own.
It prints how many examples and ticks ran, the most log lines in a minute, the peak resident memory and any
failing example (Hypothesis shrinks it: keep it in ``cases.KEPT``). Exits 1 when an invariant failed.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import CASES
from harness import LOG_LINES_PER_WINDOW, Case, Harness
from hypothesis import HealthCheck, given, settings
from ragpulse_collector.server import CollectorServer
from ragpulse_core.schema import migrate
from ragpulse_core.settings import RagpulseSettings
from ragpulse_core.store import Store

ROUND_EXAMPLES = 25


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=10.0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger().handlers[0].setLevel(logging.CRITICAL)  # counted by the harness, not printed
    with tempfile.TemporaryDirectory(prefix="ragpulse-fuzz-") as folder:
        dsn = f"chdb://{Path(folder) / 'db'}"
        store = Store(dsn)
        migrate(store, ttl_days=30)
        collector = CollectorServer(
            RagpulseSettings.load(None, collector={"host": "127.0.0.1", "port": 0}), store
        )
        collector.start()
        harness = Harness(store, collector.url, dsn)
        found = _run(harness, time.monotonic() + args.minutes * 60)
        harness.close()
        collector.stop()
        store.close()
    figures = harness.figures
    print(f"examples run           {figures.examples}")
    print(f"ticks                  {figures.ticks}")
    print(f"max log lines / minute {figures.max_lines_per_window} (budget {LOG_LINES_PER_WINDOW})")
    peak, start = figures.peak_rss_bytes >> 20, figures.start_rss_bytes >> 20
    print(f"peak RSS               {peak} MiB (at start {start} MiB)")
    print(f"collector answers      {dict(sorted(figures.statuses.items()))}")
    print(f"rules refused at load  {figures.refused_rules}")
    print(f"found                  {found or 'nothing'}")
    return 1 if found else 0


def _run(harness: Harness, deadline: float) -> str:
    @settings(max_examples=ROUND_EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(CASES)
    def one_round(case: Case) -> None:
        if time.monotonic() < deadline:
            harness.run(case)

    while time.monotonic() < deadline:
        try:
            one_round()
        except Exception:
            return traceback.format_exc(limit=3)[-4000:]
    return ""


if __name__ == "__main__":
    sys.exit(main())
