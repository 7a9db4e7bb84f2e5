"""Each judged request's verdict beside what it can be sliced by, in ``ragpulse_request_facts`` (0110).

Driven by ``ragpulse_request_verdicts``: every counted verdict newer than the facts already written (less an
overlap for writes that land late) is joined, in the database, with its request row (session, template
version, context documents and their sources, question), its trace's spans (the model asked for and the one
that answered, the configured attributes of its root span or resource) and its question's topic, and written
with Sign = 1; a request counted before under an older verdict gets that row again with Sign = -1. A day of
requests is one statement, so a backlog of a month is thirty. Verdicts from before requests had a SpanId
(empty) name their trace's request that started at their request time.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from ragpulse import semconv
from ragpulse_core.sampling import SAMPLE_BUCKETS, Shard
from ragpulse_core.store import Store

from ragpulse_dashboards.rootcause import topic_store
from ragpulse_dashboards.rootcause.topic_store import FittedModel
from ragpulse_dashboards.settings import RootCauseSettings

logger = logging.getLogger(__name__)

# A verdict's JudgeRank holds its judge's rank in the top byte and the microsecond it was judged below.
_JUDGED_US: Final = "bitAnd(JudgeRank, 72057594037927935)"
# Verdicts judged this long before the newest one counted are looked at again: a scorer writes a batch's
# verdicts after judging it (a tick's deadline, five minutes by default, and the write).
OVERLAP: Final = timedelta(minutes=15)
# Child spans of a request start within this long after it (where its model is read from).
_SPAN_SLACK: Final = timedelta(hours=1)
COLUMNS: Final = (
    "RequestTime", "TraceId", "TraceKey", "SpanId", "ServiceName", "Pipeline", "Variant", "SessionId",
    "Judge", "JudgeRank", "Hallucinated", "Weight", "Model", "ModelVersion", "TemplateVersion", "Topic",
    "Documents", "Sources", "Attributes",
)  # fmt: skip

_FACTS_SQL = """
INSERT INTO {facts} ({columns}, Sign)
WITH
verdicts AS (
    SELECT RequestTime, TraceKey, SpanId, any(ServiceName) AS ServiceName, any(Pipeline) AS Pipeline,
           any(Variant) AS Variant, Judge, JudgeRank, Hallucinated, Weight
    FROM {verdicts}
    WHERE RequestTime >= {start:DateTime64(9)} AND RequestTime < {end:DateTime64(9)}
      AND {judged_us} > {since_us:UInt64} AND {shard}
    GROUP BY RequestTime, TraceKey, SpanId, Judge, JudgeRank, Hallucinated, Weight
    HAVING sum(Sign) > 0
),
counted AS (
    SELECT RequestTime, TraceKey, SpanId, JudgeRank, any(TraceId) AS TraceId,
           any(ServiceName) AS ServiceName, any(Pipeline) AS Pipeline, any(Variant) AS Variant,
           any(SessionId) AS SessionId, any(Judge) AS Judge,
           any(Hallucinated) AS Hallucinated, any(Weight) AS Weight, any(Model) AS Model,
           any(ModelVersion) AS ModelVersion, any(TemplateVersion) AS TemplateVersion, any(Topic) AS Topic,
           any(Documents) AS Documents, any(Sources) AS Sources, any(Attributes) AS Attributes
    FROM {facts}
    WHERE RequestTime >= {start:DateTime64(9)} AND RequestTime < {end:DateTime64(9)}
      AND (TraceKey, SpanId, RequestTime) IN (SELECT TraceKey, SpanId, RequestTime FROM verdicts)
    GROUP BY RequestTime, TraceKey, SpanId, JudgeRank
    HAVING sum(Sign) > 0
),
fresh AS (
    SELECT v.* FROM verdicts AS v
    LEFT ANTI JOIN counted AS c
        ON v.TraceKey = c.TraceKey AND v.SpanId = c.SpanId AND v.RequestTime = c.RequestTime
           AND v.JudgeRank = c.JudgeRank
),
requests AS (
    SELECT TraceId, SpanId, toUnixTimestamp64Micro(Timestamp) AS at, any(SessionId) AS SessionId,
           max(Model) AS RequestModel, max(TemplateVersion) AS TemplateVersion, any(Context) AS Context,
           cityHash64(any(Question)) AS QuestionKey
    FROM {requests}
    WHERE Timestamp >= {start:DateTime64(9)} AND Timestamp < {end:DateTime64(9)}
      AND cityHash64(TraceId) IN (SELECT TraceKey FROM fresh)
    GROUP BY TraceId, SpanId, at
),
spans AS (
    SELECT TraceId,
           anyIf(SpanAttributes[{request_model:String}], SpanAttributes[{request_model:String}] != '')
               AS AskedModel,
           anyIf(SpanAttributes[{model_name:String}], SpanAttributes[{model_name:String}] != '')
               AS NamedModel,
           anyIf(SpanAttributes[{response_model:String}], SpanAttributes[{response_model:String}] != '')
               AS AnsweredModel,
           groupArrayIf((SpanId, arrayMap(name -> if(mapContains(SpanAttributes, name), SpanAttributes[name],
                        ResourceAttributes[name]), {attributes:Array(String)})),
                        (TraceId, SpanId) IN (SELECT TraceId, SpanId FROM requests)) AS roots
    FROM {spans}
    WHERE Timestamp >= {start:DateTime64(9)} AND Timestamp < {spans_end:DateTime64(9)}
      AND TraceId IN (SELECT TraceId FROM requests)
    GROUP BY TraceId
),
topics AS (
    SELECT QuestionKey, any(Topic) AS Topic FROM {question_topics}
    WHERE ModelVersion = {topic_model:DateTime64(6)}
      AND QuestionKey IN (SELECT QuestionKey FROM requests)
    GROUP BY QuestionKey
)
SELECT f.RequestTime, r.TraceId, f.TraceKey, f.SpanId, f.ServiceName, f.Pipeline, f.Variant, r.SessionId,
       f.Judge, f.JudgeRank, f.Hallucinated, f.Weight,
       multiIf(r.RequestModel != '', r.RequestModel, m.AskedModel != '', m.AskedModel, m.NamedModel) AS model,
       if(m.AnsweredModel != model, m.AnsweredModel, '') AS ModelVersion,
       r.TemplateVersion, t.Topic,
       arrayDistinct(arrayFilter(id -> id != '',
           arrayMap(chunk -> JSONExtractString(chunk, 'id'), JSONExtractArrayRaw(r.Context)))) AS Documents,
       arrayDistinct(arrayFilter(source -> source != '',
           arrayMap(chunk -> JSONExtractString(chunk, 'source'), JSONExtractArrayRaw(r.Context)))) AS Sources,
       mapFilter((name, value) -> value != '',
           mapFromArrays({attributes:Array(String)},
               arrayResize(arrayFirst(root -> root.1 = r.SpanId, m.roots).2,
                           length({attributes:Array(String)}), ''))) AS Attributes,
       toInt8(1) AS Sign
FROM fresh AS f
LEFT JOIN requests AS r
    ON cityHash64(r.TraceId) = f.TraceKey AND r.at = toUnixTimestamp64Micro(f.RequestTime)
       AND (r.SpanId = f.SpanId OR f.SpanId = '')
LEFT JOIN spans AS m ON m.TraceId = r.TraceId
LEFT JOIN topics AS t ON t.QuestionKey = r.QuestionKey
UNION ALL
SELECT RequestTime, TraceId, TraceKey, SpanId, ServiceName, Pipeline, Variant, SessionId, Judge, JudgeRank,
       Hallucinated, Weight, Model, ModelVersion, TemplateVersion, Topic, Documents, Sources, Attributes,
       toInt8(-1) AS Sign
FROM counted
WHERE (TraceKey, SpanId, RequestTime) IN (SELECT TraceKey, SpanId, RequestTime FROM fresh)
"""


@dataclass(frozen=True)
class FactsUpdate:
    days: int
    questions: int
    """Distinct questions given a topic."""
    topics: int
    topics_s: float
    """Seconds spent learning topics and giving questions one."""


def update_facts(
    store: Store, settings: RootCauseSettings, shard: Shard | None = None, now: datetime | None = None
) -> FactsUpdate:
    """Bring this shard's facts (default: all) up to the counted verdicts; fit topics first when due (shard
    0 fits)."""
    shard = shard or Shard()
    now = (now or datetime.now(UTC)).astimezone(UTC)
    started = time.perf_counter()
    fitted = topic_store.latest_model(store)
    if shard.index == 0 and topic_store.fit_due(store, fitted, settings, now):
        fitted = topic_store.fit_model(store, settings, now, fitted) or fitted
    topics_s = time.perf_counter() - started
    since_us = max(0, _newest_counted_us(store, shard) - int(OVERLAP.total_seconds() * 1_000_000))
    days = _changed_days(store, since_us, shard)
    questions = 0
    for start, end in days:
        if fitted is not None:
            assigning = time.perf_counter()
            questions += topic_store.assign_questions(store, fitted, start, end)
            topics_s += time.perf_counter() - assigning
        store.command(_statement(store), _parameters(settings, fitted, shard, start, end, since_us))
    if days:
        logger.info(
            "root cause: facts of %d day(s) updated, %d new question(s) given a topic", len(days), questions
        )
    return FactsUpdate(len(days), questions, len(fitted.model.topics) if fitted is not None else 0, topics_s)


def _shard_condition(shard: Shard) -> str:
    if shard.count == 1:
        return "1 = 1"
    return f"intDiv(TraceKey, {SAMPLE_BUCKETS}) % {{shards:UInt64}} = {{shard:UInt64}}"


def _newest_counted_us(store: Store, shard: Shard) -> int:
    [(newest,)] = store.query(
        f"SELECT max({_JUDGED_US}) FROM {store.table('ragpulse_request_facts')}"
        f" WHERE Sign = 1 AND {_shard_condition(shard)}",
        {"shards": shard.count, "shard": shard.index},
    )
    return int(newest or 0)


def _changed_days(store: Store, since_us: int, shard: Shard) -> list[tuple[datetime, datetime]]:
    """Per day holding a verdict judged after ``since_us``, the span of those verdicts' requests: a run a
    minute after the last reads minutes of requests and spans, a backlog a day at a time."""
    rows = store.query(
        "SELECT toDate(RequestTime) AS day, min(RequestTime), max(RequestTime)"
        f" FROM {store.table('ragpulse_request_verdicts')}"
        f" WHERE {_JUDGED_US} > {{since_us:UInt64}} AND {_shard_condition(shard)} GROUP BY day ORDER BY day",
        {"since_us": since_us, "shards": shard.count, "shard": shard.index},
    )
    return [(_utc(first), _utc(last) + timedelta(microseconds=1)) for _, first, last in rows]


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _statement(store: Store) -> str:
    tables = {
        "{facts}": store.table("ragpulse_request_facts"),
        "{verdicts}": store.table("ragpulse_request_verdicts"),
        "{requests}": store.table("ragpulse_requests"),
        "{spans}": store.table("otel_traces"),
        "{question_topics}": store.table("ragpulse_question_topics"),
    }
    sql = _FACTS_SQL.replace("{columns}", ", ".join(COLUMNS)).replace("{judged_us}", _JUDGED_US)
    for name, table in tables.items():
        sql = sql.replace(name, table)
    return sql.replace("{shard}", _shard_condition(Shard(0, 2)))


def _parameters(
    settings: RootCauseSettings,
    fitted: FittedModel | None,
    shard: Shard,
    start: datetime,
    end: datetime,
    since_us: int,
) -> dict[str, Any]:
    return {
        "start": start,
        "end": end,
        "spans_end": end + _SPAN_SLACK,
        "since_us": since_us,
        "shards": shard.count,
        "shard": shard.index,
        "attributes": list(settings.attributes),
        "topic_model": fitted.version if fitted is not None else datetime.fromtimestamp(0, UTC),
        "request_model": semconv.GEN_AI_REQUEST_MODEL,
        "model_name": semconv.LLM_MODEL_NAME,
        "response_model": semconv.GEN_AI_RESPONSE_MODEL,
    }
