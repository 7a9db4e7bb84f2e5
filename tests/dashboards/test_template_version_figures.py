"""Per prompt template version, in Grafana's overview and in the report: each version's requests, those that
cannot be scored, and the hallucination rate of its judged requests are what the stored rows give when each
request is looked at on its own (its best judge's newest verdict), also after a better judge re-judged some,
and for verdicts counted before they carried their request's version (0132), also when that migration runs
again."""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from grafana_macros import ALL, TimeRange, Variable, expand_dashboard_query
from ragpulse_core.schema import available_migrations, migrate
from ragpulse_core.store import Store
from ragpulse_dashboards.report.queries import template_versions
from ragpulse_scorers.pipeline.reassembly import _supersede

BOARD = json.loads(
    (Path(__file__).resolve().parents[2] / "dashboards" / "grafana" / "json" / "overview.json").read_text()
)
PANEL = next(
    panel["targets"][0]["rawSql"]
    for panel in BOARD["panels"]
    if panel["title"] == "Per prompt template version"
)
VERSIONED = 132
REQUESTS = ["TraceId", "SpanId", "Timestamp", "ServiceName", "Pipeline", "Variant", "Unscorable",
            "TemplateVersion"]  # fmt: skip
SCORES = ["TraceId", "SpanId", "RequestTime", "ScoredAt", "ServiceName", "Pipeline", "Variant", "Scorer",
          "ScorerVersion", "Metric", "Value", "Error"]  # fmt: skip
Figures = dict[tuple[str, str], tuple[int, int, int, int]]


def requests(now: datetime) -> list[list[Any]]:
    """Two services, three versions (one of them none learnt), one request in seven that cannot be scored."""
    rows = []
    for index in range(90):
        service = ("shop", "desk")[index % 2]
        version = ("v1", "v2", "")[index % 3] if service == "shop" else ("", "w1")[index % 5 == 0]
        rows.append([
            f"{index:032x}", f"{index:016x}", now - timedelta(minutes=3 + index), service, "fusion",
            "AB"[index // 2 % 2], "no_context" if index % 7 == 0 else "", version,
        ])  # fmt: skip
    return rows


def verdicts(rows: list[list[Any]], judge: str, every: int, flip: int) -> list[list[Any]]:
    """A hallucination verdict of ``judge`` on every ``every``-th scorable request."""
    return [
        [trace, span, at, datetime.now(UTC), service, pipeline, variant, judge, "1", "hallucination",
         float((index % flip == 0) != (judge == "support" and index % 3 == 0)), ""]
        for index, (trace, span, at, service, pipeline, variant, unscorable, _) in enumerate(rows)
        if not unscorable and index % every == 0
    ]  # fmt: skip


def expected(rows: list[list[Any]], scores: list[list[Any]]) -> Figures:
    """Per service and version: requests, not scored, judged, hallucinated by each request's best verdict."""
    best: dict[str, tuple[tuple[int, datetime], bool]] = {}
    for trace, _, _, scored, _, _, _, judge, _, _, value, _ in scores:
        rank = (int(judge == "support"), scored)
        if trace not in best or rank > best[trace][0]:
            best[trace] = (rank, value >= 0.5)
    figures: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for trace, _, _, service, _, _, unscorable, version in rows:
        counts = figures[(service, version)]
        counts[0] += 1
        counts[1] += bool(unscorable)
        counts[2] += trace in best
        counts[3] += trace in best and best[trace][1]
    return {key: (a, b, c, d) for key, (a, b, c, d) in figures.items()}


def panel_figures(store: Store, now: datetime) -> Figures:
    sql = expand_dashboard_query(
        PANEL,
        {
            "service": Variable(ALL, ("shop", "desk"), multi=True),
            "pipeline": Variable(ALL, ("fusion",), multi=True),
            "variant": Variable(ALL, ("A", "B"), multi=True),
        },
        TimeRange(now - timedelta(days=1), now),
    ).replace("ragpulse.ragpulse_", f"{store.database}.ragpulse_")
    figures: Figures = {}
    for row in store.query_dicts(sql):
        version = "" if row["version"] == "(none learnt)" else row["version"]
        judged, rate = int(row["judged"]), row["hallucination_rate"]
        assert (rate is None) == (judged == 0)
        hallucinated = round(rate * judged) if judged else 0
        figures[(row["service"], version)] = (
            int(row["requests"]),
            int(row["not_scored"]),
            judged,
            hallucinated,
        )
    return figures


def report_figures(store: Store, now: datetime) -> Figures:
    since_ms = int((now - timedelta(days=1)).timestamp() * 1000)
    return {
        (row.service, row.version): (
            row.requests,
            row.not_scored,
            row.hallucination.n,
            row.hallucination.successes,
        )
        for row in template_versions(store, {"since_ms": since_ms, "service": ""})
    }


def assert_agree(store: Store, now: datetime, rows: list[list[Any]], scores: list[list[Any]]) -> None:
    truth = expected(rows, scores)
    assert panel_figures(store, now) == truth
    assert report_figures(store, now) == {key: value for key, value in truth.items() if key[1]}


def judged_by_lexical(store: Store, flip: int) -> tuple[datetime, list[list[Any]], list[list[Any]]]:
    """The requests stored, each scorable one judged by the lexical judge: the time, requests and scores."""
    now = datetime.now(UTC)
    rows = requests(now)
    store.insert("ragpulse_requests", rows, REQUESTS)
    lexical = verdicts(rows, "lexical", every=1, flip=flip)
    store.insert("ragpulse_scores", lexical, SCORES)
    return now, rows, lexical


@pytest.fixture
def fresh_store(chdb_dsn: str) -> Iterator[Store]:
    store = Store(chdb_dsn, f"tv_{uuid.uuid4().hex[:8]}")
    yield store
    store.command(f"DROP DATABASE IF EXISTS `{store.database}`", use_database=False)


def test_each_version_has_its_requests_and_its_best_judges_rate(fresh_store: Store) -> None:
    migrate(fresh_store, ttl_days=30)
    now, rows, lexical = judged_by_lexical(fresh_store, flip=4)
    assert_agree(fresh_store, now, rows, lexical)

    support = verdicts(rows, "support", every=2, flip=4)  # outranks lexical, and says otherwise on some
    fresh_store.insert("ragpulse_scores", support, SCORES)
    assert_agree(fresh_store, now, rows, lexical + support)


def test_verdicts_counted_before_they_carried_a_version_are_moved_to_it_once(fresh_store: Store) -> None:
    migrate(
        fresh_store,
        ttl_days=30,
        through=max(m.version for m in available_migrations() if m.version < VERSIONED),
    )
    now, rows, lexical = judged_by_lexical(fresh_store, flip=5)

    migrate(fresh_store, ttl_days=30)
    assert_agree(fresh_store, now, rows, lexical)
    fresh_store.command(
        f"DELETE FROM {fresh_store.table('ragpulse_schema_migrations')} WHERE Version = {VERSIONED}"
    )
    migrate(fresh_store, ttl_days=30)  # the migration again, as after a crash before it was recorded
    assert_agree(fresh_store, now, rows, lexical)

    support = verdicts(rows, "support", every=3, flip=5)
    fresh_store.insert("ragpulse_scores", support, SCORES)
    assert_agree(fresh_store, now, rows, lexical + support)


def test_requests_assembled_again_take_their_verdicts_back_from_their_version(fresh_store: Store) -> None:
    """``ragpulse assembly rerun`` takes back what was judged on a request whose row changed: its version's
    judged count loses it, and no other version's goes below zero."""
    migrate(fresh_store, ttl_days=30)
    now, rows, lexical = judged_by_lexical(fresh_store, flip=4)
    taken = {row[0] for row in rows if row[7] == "v1"}

    _supersede(fresh_store, [(row[0], row[1], row[2]) for row in rows if row[0] in taken])

    kept = [row for row in rows if row[0] not in taken]
    assert_agree(fresh_store, now, kept, [score for score in lexical if score[0] not in taken])
