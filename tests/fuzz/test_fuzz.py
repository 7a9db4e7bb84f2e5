"""A short fuzzing run in the test suite (``python tests/fuzz/run.py --minutes 10`` is the long one): hostile
spans, log records, labels files, rules and judge replies never stop the scoring of the other requests."""

from __future__ import annotations

from cases import CASES, KEPT
from harness import Case, Harness
from hypothesis import HealthCheck, example, given, settings
from ragpulse_collector.server import CollectorServer
from ragpulse_core.store import Store

SHORT_EXAMPLES = 12


def test_untrusted_input_never_stops_the_scoring(
    store: Store, collector: CollectorServer, chdb_dsn: str
) -> None:
    harness = Harness(store, collector.url, chdb_dsn)

    @settings(max_examples=SHORT_EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])  # fmt: skip
    @given(CASES)
    def one_example(case: Case) -> None:
        harness.run(case)

    for kept in KEPT:
        one_example = example(kept)(one_example)
    try:
        one_example()
    finally:
        harness.close()
