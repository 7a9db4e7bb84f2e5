"""Time charts have enough buckets to show a change within their window: a drift halfway through a short
demo run shows as several buckets before and after it, not one step between two bars."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pipeline_testing import SPAN_COLUMNS, root_span, settings_for
from ragpulse_core.store import Store
from ragpulse_dashboards.report import collect_report
from ragpulse_dashboards.report.collect import _bucket_seconds
from ragpulse_scorers.lexical.scorer import LexicalScorer
from ragpulse_scorers.pipeline.tick import run_tick

PLANTED = "Paris is the capital. The Eiffel Tower was moved to Lyon in 1999 by 4,000 engineers."


@pytest.mark.parametrize("span_s", [20, 45, 90, 150, 400, 1_000, 3 * 3600, 20 * 3600, 6 * 86400])
def test_every_window_gets_at_least_a_dozen_buckets(span_s: int) -> None:
    size = _bucket_seconds(0.0, float(span_s))
    assert 12 <= span_s / size <= 30 or size == 86400


def test_a_drift_halfway_through_a_one_minute_run_shows_over_several_buckets(
    store: Store, chdb_dsn: str
) -> None:
    end = datetime.now(UTC)
    # One request a second for a minute; from the middle on, answers carry planted statements.
    rows = [
        root_span(f"{index:032x}", age=timedelta(seconds=60 - index), answer=PLANTED)
        if index >= 30
        else root_span(f"{index:032x}", age=timedelta(seconds=60 - index))
        for index in range(60)
    ]
    store.insert("otel_traces", rows, SPAN_COLUMNS)
    run_tick(settings_for(chdb_dsn, settle_delay_s=0), store, [LexicalScorer()])

    data = collect_report(store, end - timedelta(minutes=5))

    rates = [(point.bucket, point.rate.value) for point in data.hallucination_series]
    assert data.bucket_s <= 5 and len(rates) >= 12
    drift = end.timestamp() - 30
    before = [rate for bucket, rate in rates if bucket + data.bucket_s <= drift]
    after = [rate for bucket, rate in rates if bucket >= drift]
    assert len(before) >= 4 and len(after) >= 4
    assert max(before) < min(after)


def test_buckets_fit_the_traffic_not_the_time_since_it(store: Store, chdb_dsn: str) -> None:
    """A ten-second run reported on two minutes later (a slow judge, a loaded machine) keeps one-second
    buckets: the time after the last request does not coarsen its charts."""
    rows = [root_span(f"{index:032x}", age=timedelta(seconds=130 - index)) for index in range(10)]
    store.insert("otel_traces", rows, SPAN_COLUMNS)
    run_tick(settings_for(chdb_dsn, settle_delay_s=0), store, [LexicalScorer()])

    data = collect_report(store, datetime.now(UTC) - timedelta(minutes=5))

    assert data.bucket_s == 1
    assert len(data.hallucination_series) >= 8
