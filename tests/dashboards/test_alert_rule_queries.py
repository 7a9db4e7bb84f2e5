"""Every Grafana alert rule's SQL, expanded by the plugin's backend macros alone, runs on chDB and gives what
Grafana's reduce/threshold expressions need: label columns and one number per series. The numbers match the
built-in alert job's Wilson bounds, so Grafana and embedded mode agree."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from demo_data import SCORE_COLUMNS, SERVICE, VARIANTS, Demo, seed
from grafana_macros import TimeRange, expand_alert_query
from ragpulse_core.store import Store
from ragpulse_scorers.settings import ScorerSettings
from ragpulse_scorers.stats import wilson_interval

SAMPLE_RATE_LITERAL = "1.0"
RULES_FILE = Path(__file__).resolve().parents[2] / "dashboards/grafana/provisioning/alerting/rules.yml"


def rule_query(uid: str) -> tuple[str, int]:
    rules = [rule for group in yaml.safe_load(RULES_FILE.read_text())["groups"] for rule in group["rules"]]
    rule = next(rule for rule in rules if rule["uid"] == uid)
    query = next(item for item in rule["data"] if item["refId"] == "A")
    return query["model"]["rawSql"], query["relativeTimeRange"]["from"]


def evaluate(store: Store, uid: str, now: datetime) -> list[dict[str, Any]]:
    """What Grafana runs at ``now``: the rule's relative range, backend macros only."""
    sql, seconds = rule_query(uid)
    return store.query_dicts(expand_alert_query(sql, TimeRange(now - timedelta(seconds=seconds), now)))


def numbers(row: dict[str, Any]) -> list[str]:
    return [k for k, v in row.items() if isinstance(v, int | float) and not isinstance(v, bool)]


def labels(row: dict[str, Any]) -> list[str]:
    return [k for k, v in row.items() if isinstance(v, str)]


def test_hallucination_rule_gives_the_wilson_lower_bound_per_service_and_variant(store: Store) -> None:
    demo = seed(store, datetime.now(UTC).replace(microsecond=0))
    rows = evaluate(store, "ragpulse_hallucination_rate", demo.now)
    # Lexical and the support judge both scored part of the traffic: still one series per variant.
    assert sorted((row["ServiceName"], row["Variant"]) for row in rows) == [(SERVICE, v) for v in VARIANTS]
    for row in rows:
        assert labels(row) == ["ServiceName", "Variant"]
        assert numbers(row) == ["hallucination_rate_lower_bound"]
        flags = demo.lexical[row["Variant"]]
        expected, _ = wilson_interval(sum(flags), len(flags))
        assert row["hallucination_rate_lower_bound"] == pytest.approx(expected, abs=1e-4)


def test_hallucination_rule_takes_the_support_judge_over_lexical_for_a_request(store: Store) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    traces = [uuid.uuid4().hex for _ in range(40)]
    # Lexical calls every request hallucinated; the support judge read half of them and disagrees.
    rows = [score_row(trace, now, "lexical", 1.0) for trace in traces]
    rows += [score_row(trace, now, "support", 0.0) for trace in traces[:20]]
    store.insert("ragpulse_scores", rows, SCORE_COLUMNS)
    (row,) = evaluate(store, "ragpulse_hallucination_rate", now + timedelta(seconds=1))
    expected, _ = wilson_interval(20, 40)
    assert row["hallucination_rate_lower_bound"] == pytest.approx(expected, abs=1e-4)


def score_row(trace: str, at: datetime, scorer: str, value: float, variant: str = "C") -> list[Any]:
    return [trace, at, at, SERVICE, "fusion", variant, scorer, "1", "hallucination", value, "", "", "{}", "",
            0, 0, 0.0, 1.0, ""]  # fmt: skip


def test_hallucination_rule_ignores_series_with_too_few_samples(store: Store) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    row = [
        now,
        now,
        SERVICE,
        "fusion",
        "C",
        "lexical",
        "1",
        "hallucination",
        1.0,
        "",
        "",
        "{}",
        "",
        0,
        0,
        0.0,
        1.0,
        "",
    ]
    rows = [[uuid.uuid4().hex, *row] for _ in range(29)]
    store.insert("ragpulse_scores", rows, SCORE_COLUMNS)
    assert evaluate(store, "ragpulse_hallucination_rate", now + timedelta(seconds=1)) == []


def test_judge_error_rule_counts_error_rows(store: Store) -> None:
    demo = seed(store, datetime.now(UTC).replace(microsecond=0))
    rows = {
        row["Scorer"]: row
        for row in evaluate(store, "ragpulse_judge_errors", demo.now + timedelta(minutes=1))
    }
    assert rows["lexical"]["judge_error_rate_lower_bound"] == 0
    failed = store.query(
        "SELECT uniqExactIf(TraceId, Error != ''), uniqExact(TraceId) FROM ragpulse.ragpulse_scores "
        "WHERE Scorer = 'support'"
    )[0]
    expected, _ = wilson_interval(*failed)
    assert rows["support"]["judge_error_rate_lower_bound"] == pytest.approx(expected, abs=1e-4)
    assert expected > 0.1  # the demo data makes this rule fire


def test_stalled_rule_is_zero_while_scores_flow_and_counts_unscored_traffic_otherwise(store: Store) -> None:
    demo: Demo = seed(store, datetime.now(UTC).replace(microsecond=0))
    (flowing,) = evaluate(store, "ragpulse_scoring_stalled", demo.now)
    assert (flowing["ServiceName"], flowing["unscored_expected"]) == (SERVICE, 0)

    store.command(f"TRUNCATE TABLE {store.table('ragpulse_scores')}")
    (stalled,) = evaluate(store, "ragpulse_scoring_stalled", demo.now)
    assert labels(stalled) == ["ServiceName"] and numbers(stalled) == ["unscored_expected"]
    assert stalled["unscored_expected"] == 2 * 60


def test_stalled_rule_expects_only_the_sampled_share_of_traffic(store: Store) -> None:
    demo: Demo = seed(store, datetime.now(UTC).replace(microsecond=0))
    store.command(f"TRUNCATE TABLE {store.table('ragpulse_scores')}")
    sql, seconds = rule_query("ragpulse_scoring_stalled")
    window = TimeRange(demo.now - timedelta(seconds=seconds), demo.now)
    # 120 requests at a 5% sample rate: 6 expected, too few to call scoring stalled.
    sampled = sql.replace(f"{SAMPLE_RATE_LITERAL} AS sample_rate", "0.05 AS sample_rate")
    assert sampled != sql
    (row,) = store.query_dicts(expand_alert_query(sampled, window))
    assert row["unscored_expected"] == 0


def test_stalled_rule_sample_rate_is_the_scorers_default() -> None:
    sql, _ = rule_query("ragpulse_scoring_stalled")
    assert f"WITH {SAMPLE_RATE_LITERAL} AS sample_rate" in sql
    assert float(SAMPLE_RATE_LITERAL) == ScorerSettings().sample_rate


def test_support_drop_rule_compares_the_last_hour_with_the_week_before(store: Store) -> None:
    now = datetime.now(UTC).replace(microsecond=0)

    def scores(variant: str, bad: int, total: int, at: datetime) -> list[list[Any]]:
        return [[uuid.uuid4().hex, at, at, SERVICE, "fusion", variant, "lexical", "1", "hallucination",
                 float(i < bad), "", "", "{}", "", 0, 0, 0.0, 1.0, ""] for i in range(total)]  # fmt: skip

    store.insert("ragpulse_scores", scores("A", 25, 500, now - timedelta(days=2)), SCORE_COLUMNS)
    store.insert("ragpulse_scores", scores("A", 30, 200, now - timedelta(minutes=10)), SCORE_COLUMNS)
    store.insert("ragpulse_scores", scores("B", 25, 500, now - timedelta(days=3)), SCORE_COLUMNS)
    store.insert("ragpulse_scores", scores("B", 11, 200, now - timedelta(minutes=10)), SCORE_COLUMNS)
    store.insert(
        "ragpulse_scores", scores("C", 30, 200, now - timedelta(minutes=10)), SCORE_COLUMNS
    )  # no baseline

    rows = {
        row["Variant"]: row for row in evaluate(store, "ragpulse_support_drop", now + timedelta(seconds=1))
    }

    assert set(rows) == {"A", "B"}
    assert numbers(rows["A"]) == ["support_drop_gap"]
    base_lower, _ = wilson_interval(475, 500)
    _, current_upper = wilson_interval(170, 200)
    assert rows["A"]["support_drop_gap"] == pytest.approx(base_lower - current_upper, abs=1e-4)
    assert rows["A"]["support_drop_gap"] > 0 > rows["B"]["support_drop_gap"]
