"""The root-cause job's facts: every judged request once, with each dimension it is sliced by, read from where
ragpulse keeps it (request row, spans, verdicts), and the hourly slice sums the views keep from them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ragpulse_core.sampling import Shard
from ragpulse_core.store import Store
from ragpulse_dashboards.rootcause.facts import update_facts
from ragpulse_dashboards.settings import RootCauseSettings
from rootcause_data import SCORE_COLUMNS, StoredRequest, minutes_ago, write_requests

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
