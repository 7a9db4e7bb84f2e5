"""A rule with ``directed_share`` judges more of the requests the free judge is unsure of, at the same
expected number of judgments, and records each judged request's inclusion probability on its score rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pipeline_testing import RecordingScorer, insert_requests
from ragpulse_core.directed_sampling import inclusion_probability, plan_directed
from ragpulse_core.sampling import SAMPLE_BUCKETS
from ragpulse_core.store import Store
from ragpulse_judge import default_judge
from ragpulse_judge.rules import LexicalParams
from ragpulse_scorers.lexical.scorer import LEARNT_VERSION, RULES_VERSION
from ragpulse_scorers.lexical.uncertainty import free_verdict_uncertainty, verdict_uncertainty
from ragpulse_scorers.pipeline.tick import run_tick
from ragpulse_scorers.settings import ScorersSettings

UNSURE, SURE = 0.40, 1.0  # the free judge's support scores: just under its threshold, and far above it


def setup(store: Store, version: str = RULES_VERSION) -> dict[str, tuple[int, float]]:
    """600 requests; the free judge (at ``version``) gave every tenth the support score UNSURE, the rest SURE.
    Returns each trace's sample bucket and free support score."""
    insert_requests(store, 600, age=timedelta(minutes=10))
    requests = store.query(
        f"SELECT TraceId, SpanId, Timestamp, SampleKey FROM {store.table('ragpulse_requests')}"
        " ORDER BY TraceId"
    )
    rows: list[list[Any]] = []
    found: dict[str, tuple[int, float]] = {}
    for index, (trace, span, at, key) in enumerate(requests):
        support = UNSURE if index % 10 == 0 else SURE
        found[trace] = (key % SAMPLE_BUCKETS, support)
        rows.append([trace, span, at, datetime.now(UTC), "svc", "fusion", "A", "lexical",
                     version, "support", support, ""])  # fmt: skip
    columns = ["TraceId", "SpanId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
               "ScorerVersion", "Metric", "Value", "Error"]  # fmt: skip
    store.insert("ragpulse_scores", rows, columns)
    return found


def judged(store: Store, directed_share: float, chdb_dsn: str) -> dict[str, float]:
    """Runs one tick of the LLM judge (``support``) under a 10% rule; its judged traces with their recorded
    inclusion probabilities."""
    rule = {"name": "checked", "judges": ["support"], "sample_rate": 0.1, "directed_share": directed_share}
    settings = ScorersSettings.load(
        store={"dsn": chdb_dsn}, scorer={"settle_delay_s": 60, "scorers": ["lexical"]}, rules=[rule]
    )
    run_tick(settings, store, [RecordingScorer(name="support")])
    rows = store.query(
        f"SELECT TraceId, any(InclusionProbability) FROM {store.table('ragpulse_scores')} FINAL"
        " WHERE Scorer = 'support' GROUP BY TraceId"
    )
    return {trace: float(probability) for trace, probability in rows}


def test_a_directed_rule_judges_more_uncertain_requests_and_stores_their_probabilities(
    store: Store, chdb_dsn: str
) -> None:
    requests = setup(store)
    uncertain = {trace for trace, (_, support) in requests.items() if support == UNSURE}
    directed = judged(store, 0.5, chdb_dsn)

    threshold = LexicalParams().threshold
    plan = plan_directed(0.1, 0.5, [verdict_uncertainty(s, threshold) for _, s in requests.values()])
    expected = {
        trace: inclusion_probability(verdict_uncertainty(support, threshold), plan)
        for trace, (bucket, support) in requests.items()
    }
    chosen = {
        trace for trace, (bucket, _) in requests.items() if bucket < round(expected[trace] * SAMPLE_BUCKETS)
    }
    assert set(directed) == chosen
    assert directed == {trace: expected[trace] for trace in chosen}
    # Uncertain requests are judged with probability ~0.47 against ~0.06 for the others; 60 calls expected.
    assert all(directed[trace] > 0.4 for trace in chosen & uncertain)
    assert all(directed[trace] < 0.1 for trace in chosen - uncertain)
    assert sum(expected.values()) == pytest.approx(60, abs=0.5)
    assert len(chosen & uncertain) > 15


def test_without_a_directed_share_the_rule_samples_uniformly_and_its_rows_stay_unweighted(
    store: Store, chdb_dsn: str
) -> None:
    requests = setup(store)
    uniform = judged(store, 0.0, chdb_dsn)
    assert set(uniform) == {trace for trace, (bucket, _) in requests.items() if bucket < 0.1 * SAMPLE_BUCKETS}
    assert set(uniform.values()) <= {1.0}


def test_the_learnt_judges_stored_scores_are_read_as_its_probabilities(store: Store, chdb_dsn: str) -> None:
    # The same support scores written by the learnt judge: 0.40 is the calibrated chance of support, above
    # where its verdict turns, so the uncertainty is that of the learnt judge, not of the rules' threshold.
    version = f"{LEARNT_VERSION}-{default_judge().version}"
    requests = setup(store, version)
    directed = judged(store, 0.5, chdb_dsn)
    learnt = [free_verdict_uncertainty(support, version) for _, support in requests.values()]
    plan = plan_directed(0.1, 0.5, learnt)
    expected = {
        trace: inclusion_probability(free_verdict_uncertainty(support, version), plan)
        for trace, (_, support) in requests.items()
    }
    assert directed and directed == {trace: expected[trace] for trace in directed}
    # Read as the rules' score, the unsure requests would have had another chance of being judged.
    threshold = LexicalParams().threshold
    as_rules = plan_directed(0.1, 0.5, [verdict_uncertainty(s, threshold) for _, s in requests.values()])
    unsure = [trace for trace in directed if requests[trace][1] == UNSURE]
    assert unsure and all(
        directed[trace]
        != pytest.approx(inclusion_probability(verdict_uncertainty(UNSURE, threshold), as_rules))
        for trace in unsure
    )
