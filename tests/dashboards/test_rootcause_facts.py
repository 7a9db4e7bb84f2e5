"""The root-cause job's facts: every judged request once, with each dimension it is sliced by, read from where
ragpulse keeps it (request row, spans, verdicts), and the hourly slice sums the views keep from them."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from ragpulse_core.sampling import Shard
from ragpulse_core.store import Store
from ragpulse_dashboards.rootcause.facts import update_facts
from ragpulse_dashboards.rootcause.figures import conversation_rates
from ragpulse_dashboards.rootcause.ranking import SliceKey
from ragpulse_dashboards.rootcause.slices import Period, Scope, service_counts, slice_residuals
from ragpulse_dashboards.settings import RootCauseSettings
from rootcause_data import SCORE_COLUMNS, SERVICE, StoredRequest, minutes_ago, write_requests

ATTRIBUTES = RootCauseSettings(attributes=["customer.tier", "cloud.region"])


def facts(store: Store) -> list[dict[str, Any]]:
    """The counted facts (Sign summed), one per request."""
    return store.query_dicts(
        "SELECT TraceId, any(Model) AS Model, any(ModelVersion) AS ModelVersion,"
        " any(TemplateVersion) AS TemplateVersion, any(Documents) AS Documents, any(Sources) AS Sources,"
        " any(Attributes) AS Attributes, any(SessionId) AS SessionId, any(Judge) AS Judge,"
        " any(Hallucinated) AS Hallucinated, sum(Sign) AS counted"
        f" FROM {store.table('ragpulse_request_facts')} GROUP BY TraceId, JudgeRank HAVING counted != 0"
        " ORDER BY TraceId"
    )


def slice_sums(store: Store) -> dict[tuple[str, str], tuple[int, int]]:
    rows = store.query(
        "SELECT Dimension, Value, sum(Judged), sum(Hallucinated)"
        f" FROM {store.table('ragpulse_slice_hours')} GROUP BY Dimension, Value HAVING sum(Judged) != 0"
    )
    return {(str(d), str(v)): (int(n), int(h)) for d, v, n, h in rows}


def test_each_dimension_is_read_from_where_ragpulse_keeps_it(store: Store) -> None:
    write_requests(
        store,
        [
            StoredRequest(
                minutes_ago(30), True, model="gpt-4o", model_version="gpt-4o-2024-08-06",
                template_version="support-v7", documents=[("faq-1.md", "faq"), ("ref-9.md", "api-reference")],
                attributes={"customer.tier": "enterprise"},
                resource={"customer.tier": "free", "cloud.region": "eu"}, session="s-1",
            ),
            StoredRequest(minutes_ago(20), False, model="gpt-4o", model_version="gpt-4o", session="s-1"),
            StoredRequest(minutes_ago(10), None),
        ],
    )  # fmt: skip

    update_facts(store, ATTRIBUTES)

    first, second = sorted(facts(store), key=lambda row: -row["Hallucinated"])
    assert first["Model"] == "gpt-4o" and first["ModelVersion"] == "gpt-4o-2024-08-06"
    assert first["TemplateVersion"] == "support-v7"
    assert first["Documents"] == ["faq-1.md", "ref-9.md"] and first["Sources"] == ["faq", "api-reference"]
    # The root span's attribute wins over its resource's; the resource fills what the span lacks.
    assert first["Attributes"] == {"customer.tier": "enterprise", "cloud.region": "eu"}
    assert first["SessionId"] == "s-1" and first["Judge"] == "lexical"
    # A model that answered as the one asked for has no version of its own; unjudged requests have no fact.
    assert second["ModelVersion"] == "" and second["Attributes"] == {}
    sums = slice_sums(store)
    assert sums[("", "")] == (2, 1)
    assert sums[("template version", "support-v7")] == (1, 1)
    assert sums[("model version", "gpt-4o-2024-08-06")] == (1, 1)
    assert sums[("customer.tier", "enterprise")] == (1, 1)
    assert sums[("source", "api-reference")] == (1, 1) and sums[("source", "faq")] == (2, 1)
    assert ("model version", "gpt-4o") not in sums


def test_the_template_version_column_is_the_one_assembly_writes(store: Store) -> None:
    [(kind, default)] = store.query(
        "SELECT type, default_expression FROM system.columns"
        " WHERE database = {db:String} AND table = 'ragpulse_requests' AND name = 'TemplateVersion'",
        {"db": store.database},
    )
    assert kind == "LowCardinality(String)" and default == "''"


def test_a_better_judges_verdict_replaces_the_counted_one_and_counts_once(store: Store) -> None:
    [trace] = write_requests(store, [StoredRequest(minutes_ago(30), False, template_version="v1")])
    update_facts(store, ATTRIBUTES)
    assert slice_sums(store)[("template version", "v1")] == (1, 0)

    row = store.query_dicts(
        f"SELECT SpanId, Timestamp FROM {store.table('ragpulse_requests')} WHERE TraceId = {{t:String}}",
        {"t": trace},
    )[0]
    store.insert(
        "ragpulse_scores",
        [[trace, row["SpanId"], row["Timestamp"], row["Timestamp"] + timedelta(minutes=2), "support-bot",
          "fusion", "A", "support", "1", "hallucination", 1.0, "", "", "{}", ""]],
        SCORE_COLUMNS,
    )  # fmt: skip
    update_facts(store, ATTRIBUTES)
    update_facts(store, ATTRIBUTES)

    [fact] = facts(store)
    assert fact["Judge"] == "support" and fact["Hallucinated"] == 1 and fact["counted"] == 1
    assert slice_sums(store)[("template version", "v1")] == (1, 1)


def test_shards_split_the_requests_and_together_write_each_once(store: Store) -> None:
    write_requests(store, [StoredRequest(minutes_ago(60 - i), i % 2 == 0) for i in range(40)])

    for index in range(3):
        update_facts(store, ATTRIBUTES, Shard(index, 3))

    assert slice_sums(store)[("", "")] == (40, 20)
    assert len(facts(store)) == 40


def test_requests_of_several_days_are_all_counted(store: Store) -> None:
    write_requests(store, [StoredRequest(minutes_ago(60 * 24 * day + 5), day % 2 == 0) for day in range(4)])
    update = update_facts(store, ATTRIBUTES)
    assert update.days >= 4
    assert slice_sums(store)[("", "")] == (4, 2)


def test_days_and_conversations_are_summed_as_the_hours_are(store: Store) -> None:
    # Yesterday's noon, so that the requests fall on three calendar days whatever the hour the test runs at.
    now = minutes_ago(0)
    noon = now.replace(hour=12, minute=0, second=0) - timedelta(days=1)
    write_requests(
        store,
        [
            StoredRequest(
                noon - timedelta(days=i % 3, minutes=i),
                i % 4 == 0,
                session=f"s{i // 2}",
                documents=[("d", "s")],
            )
            for i in range(12)
        ],
    )
    update_facts(store, ATTRIBUTES)

    by_day = """
        SELECT toDate(Hour) AS day, Dimension, Value, sum(Judged), sum(Hallucinated) FROM {hours}
        GROUP BY day, Dimension, Value HAVING sum(Judged) != 0 ORDER BY day, Dimension, Value
    """
    hours = store.query(by_day.format(hours=store.table("ragpulse_slice_hours")))
    days = store.query(
        "SELECT Day, Dimension, Value, sum(Judged), sum(Hallucinated)"
        f" FROM {store.table('ragpulse_slice_days')} GROUP BY Day, Dimension, Value HAVING sum(Judged) != 0"
        " ORDER BY Day, Dimension, Value"
    )
    assert days == hours and len({row[0] for row in days}) == 3
    [(sessions, judged, unsupported)] = store.query(
        "SELECT uniqExact(SessionKey), sum(Judged), sum(Unsupported)"
        f" FROM {store.table('ragpulse_session_days')}"
    )
    assert (sessions, judged, unsupported) == (6, 12, 3)


def test_a_window_of_days_counts_every_request_in_its_hours_once(store: Store) -> None:
    """Read from the daily sums for its whole days and the hourly ones at either end, a window of days and
    its baseline count what the facts hold in their hours, and the conversations as the facts group them."""
    write_requests(
        store,
        [
            StoredRequest(minutes_ago(17 * i + 5), i % 3 == 0, session=f"s{i // 4}", documents=[("d", "s")])
            for i in range(460)
        ],
    )
    update_facts(store, ATTRIBUTES)
    now = minutes_ago(0)
    period = Period(now - timedelta(days=2, hours=7, minutes=20), now, 2.5)

    [(name, counts)] = service_counts(store, None, period).items()

    def weighted(start: datetime, end: datetime) -> tuple[float, float]:
        [(weights, events)] = store.query(
            f"SELECT sum(Sign * Weight), sum(Sign * Weight * Hallucinated)"
            f" FROM {store.table('ragpulse_request_facts')}"
            " WHERE RequestTime >= {start:DateTime64(9)} AND RequestTime < {end:DateTime64(9)}",
            {"start": start, "end": end},
        )
        return float(weights), float(events)

    hour = period.start.replace(minute=0, second=0, microsecond=0)
    assert name == SERVICE and not period.exact_window and not period.exact_baseline
    window, baseline = weighted(hour, now), weighted(hour - timedelta(days=2, hours=12), hour)
    assert (counts.window.weights, counts.window.weighted_events) == pytest.approx(window)
    assert (counts.baseline.weights, counts.baseline.weighted_events) == pytest.approx(baseline)
    [rates] = conversation_rates(store, period.start, now, None)
    [(conversations, unsupported)] = store.query(
        "SELECT count(), countIf(bad > 0) FROM (SELECT SessionId, sum(Sign * Hallucinated) AS bad"
        f" FROM {store.table('ragpulse_request_facts')}"
        " WHERE RequestTime >= {start:DateTime64(9)} AND RequestTime <= {end:DateTime64(9)}"
        " GROUP BY SessionId HAVING sum(Sign) > 0)",
        {"start": period.start, "end": now},
    )
    assert (rates.conversations, rates.unsupported) == (conversations, unsupported) and conversations > 20


def test_a_window_cut_to_the_second_counts_what_the_facts_hold_to_the_second(store: Store) -> None:
    """A window and baseline of under two days, cut mid-hour: whole days and hours from the sums, the
    part-hours from the facts, every slice as the facts count it between the same instants."""
    write_requests(
        store,
        [
            StoredRequest(minutes_ago(13 * i + 3), i % 4 == 0, documents=[(f"d{i % 2}", "s")])
            for i in range(300)
        ],
    )
    update_facts(store, ATTRIBUTES)
    now = minutes_ago(0)
    period = Period(now - timedelta(hours=20, minutes=13, seconds=7), now, 1.3)
    assert period.exact_window and period.exact_baseline

    [(name, counts)] = service_counts(store, None, period).items()

    def weighted(start: datetime, end: datetime, document: str) -> tuple[float, float]:
        [(weights, events)] = store.query(
            f"SELECT sum(Sign * Weight), sum(Sign * Weight * Hallucinated)"
            f" FROM {store.table('ragpulse_request_facts')}"
            " WHERE RequestTime >= {start:DateTime64(9)} AND RequestTime < {end:DateTime64(9)}"
            " AND ({document:String} = '' OR has(Documents, {document:String}))",
            {"start": start, "end": end, "document": document},
        )
        return float(weights), float(events)

    window, baseline = (period.start, now), (period.baseline_start, period.baseline_end)
    assert name == SERVICE
    assert (counts.window.weights, counts.window.weighted_events) == pytest.approx(weighted(*window, ""))
    assert (counts.baseline.weights, counts.baseline.weighted_events) == pytest.approx(
        weighted(*baseline, "")
    )
    documents = {c.key.value: c for c in counts.slices if c.key.dimension == "document"}
    assert set(documents) == {"d0", "d1"}
    for document, found in documents.items():
        assert (found.window.weights, found.window.weighted_events) == pytest.approx(
            weighted(*window, document)
        )
        assert (found.baseline.weights, found.baseline.weighted_events) == pytest.approx(
            weighted(*baseline, document)
        )
        assert found.window.weights > 10 and found.baseline.weights > 10


HOSTILE_NAMES = [
    "tier') OR 1=1 --",
    "region`]; DROP TABLE ragpulse_requests; --",
    "{attributes:Array(String)}",
    "客户.層級 \u00e9\u0301",
]


def test_configured_attribute_names_are_data_however_hostile(store: Store) -> None:
    """Names a team configures reach SQL only as bound values: each is sliced by as written, and no name
    changes what a statement does."""
    settings = RootCauseSettings(attributes=HOSTILE_NAMES)
    write_requests(
        store,
        [
            StoredRequest(
                minutes_ago(30 - i), i % 2 == 0, attributes={name: f"v{i % 2}" for name in HOSTILE_NAMES}
            )
            for i in range(8)
        ],
    )

    update_facts(store, settings)

    assert all(fact["Attributes"] == {name: fact["Attributes"][HOSTILE_NAMES[0]] for name in HOSTILE_NAMES}
               for fact in facts(store))  # fmt: skip
    assert {key: slice_sums(store)[key] for key in [(HOSTILE_NAMES[1], "v0"), (HOSTILE_NAMES[3], "v1")]} == {
        (HOSTILE_NAMES[1], "v0"): (4, 4),
        (HOSTILE_NAMES[3], "v1"): (4, 0),
    }
    keys = [SliceKey(HOSTILE_NAMES[0], "v0"), SliceKey(HOSTILE_NAMES[2], "v1")]
    now = minutes_ago(0)
    residuals = slice_residuals(store, Scope(SERVICE), Period(now - timedelta(hours=1), now, 1.0), keys)
    inside = residuals[(keys[0], keys[1])].window
    assert inside.weights > 0 and inside.weighted_events == pytest.approx(inside.weights)
    assert store.query(f"SELECT count() FROM {store.table('ragpulse_requests')}") == [(8,)]
