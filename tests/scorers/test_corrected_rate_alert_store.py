"""The corrected-rate alert evaluated against chDB: it fires from reviewer labels on the random share, and
without enough labels it records why it cannot tell rather than a number."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from ragpulse_core.store import Store
from ragpulse_dashboards.alerts import evaluate_alerts, rules
from ragpulse_dashboards.alerts.checks import load_checks
from ragpulse_dashboards.alerts.conditions import observe
from ragpulse_dashboards.settings import AlertSettings
from ragpulse_scorers.labels.store import Label, RequestRef, write_labels
from ragpulse_scorers.review import in_uniform_share_sql
from review_data import judged_requests

SETTINGS = AlertSettings(corrected_threshold=0.2, min_samples=30, window_minutes=60)


def _traffic(store: Store, count: int = 200) -> dict[str, bool]:
    """Two requests in three are hallucinated; the free judge catches 80% and flags 10% of grounded ones."""
    draw = random.Random(3)
    truths = [draw.random() < 2 / 3 for _ in range(count)]
    made = judged_requests(store, [
        {"index": index, "lexical_bad": draw.random() < (0.8 if bad else 0.1), "support": 0.3,
         "service": "shop"}
        for index, bad in enumerate(truths)
    ])  # fmt: skip
    return {judged.id.trace_id: bad for judged, bad in zip(made, truths, strict=True)}


def _label_the_random_share(store: Store, truth: dict[str, bool]) -> int:
    requests = store.query(
        "SELECT TraceId, SpanId, Timestamp FROM"
        f" {store.table('ragpulse_requests')} WHERE {in_uniform_share_sql()}"
    )
    write_labels(store, [
        Label.of(RequestRef(trace, span, at, "shop", "plain", "A"),
                 "hallucinated" if truth[trace] else "grounded", author="ana", source="reviewer")
        for trace, span, at in requests
    ])  # fmt: skip
    return len(requests)


def test_the_corrected_rate_fires_once_reviewers_measured_the_judge(store: Store) -> None:
    truth = _traffic(store)
    assert _label_the_random_share(store, truth) >= 40
    fired = evaluate_alerts(store, SETTINGS).fired
    corrected = [record for record in fired if record.key.rule == rules.CORRECTED_RATE]
    assert [record.key for record in corrected] == [rules.AlertKey(rules.CORRECTED_RATE, "shop", "A")]
    record = corrected[0]
    assert record.lower > 0.2 and record.lower < sum(truth.values()) / len(truth) < record.upper
    assert "reviewer labels" in record.summary and "corrected hallucination rate" in record.summary


def test_without_labels_it_says_why_it_cannot_tell_and_decides_nothing(store: Store) -> None:
    _traffic(store, 60)
    seen = [
        found
        for found in observe(store, SETTINGS, datetime.now(UTC))
        if found.key.rule == rules.CORRECTED_RATE
    ]
    assert len(seen) == 1 and not seen[0].fire and not seen[0].clear
    assert "not estimated (not enough labels: need 10 hallucinated and 10 grounded" in seen[0].summary


def test_unset_it_is_not_evaluated(store: Store) -> None:
    _traffic(store, 60)
    evaluate_alerts(store, AlertSettings(min_samples=30))
    assert load_checks(store, "shop").latest(rules.AlertKey(rules.CORRECTED_RATE, "shop", "A")) is None
