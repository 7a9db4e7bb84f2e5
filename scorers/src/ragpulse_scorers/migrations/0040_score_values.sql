-- Score values that read right without FINAL. Each row of ragpulse_scores comes here narrow (no texts), with
-- Sign = 1 (a request is its ids and its start time, as 0035 names it); when a request is scored again by the same scorer (a new version, a retried batch), the view also
-- writes every still-counted row of that (request, scorer) again with Sign = -1. A reader sums Sign (and
-- Sign * Value) instead of counting rows, and a re-scored request counts once at any moment, before its parts
-- merge as after (CollapsingMergeTree drops each +1/-1 pair when it merges). Error rows are among the rows
-- taken back, so a request that failed and then was scored counts as scored.
-- Head = 1 on one row of each judgment (a request's rows from one scorer in one write): judgments, failed
-- judgments and their lag are sums and quantiles over heads.
-- The view reads the rows a write takes back from this table by the hour of their requests (the sorting key's
-- first part), so a write of a few minutes' requests reads an hour or two. Stop scorers while this migrates: rows they write
-- between the view's creation and the copy below would be counted twice.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_score_values (
    RequestTime DateTime64(9) CODEC(Delta, ZSTD(1)),
    ScoredAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    TraceKey UInt64 CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    Metric LowCardinality(String) CODEC(ZSTD(1)),
    Value Nullable(Float64) CODEC(ZSTD(1)),
    Failed UInt8 CODEC(ZSTD(1)),
    Head UInt8 CODEC(ZSTD(1)),
    CostUSD Float64 CODEC(ZSTD(1)),
    InputTokens UInt32 CODEC(ZSTD(1)),
    OutputTokens UInt32 CODEC(ZSTD(1)),
    Sign Int8 CODEC(ZSTD(1))
) ENGINE = CollapsingMergeTree(Sign)
PARTITION BY toDate(RequestTime)
ORDER BY (toStartOfHour(RequestTime), Metric, Scorer, ServiceName, Variant, TraceKey, SpanId, RequestTime, ScoredAt)
TTL toDateTime(RequestTime) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

-- In a view, ragpulse_scores stands for the rows being written (every mention of it, the IN subquery's too).
-- Of a write that holds one request's judgment twice, the newest counts.
CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_score_values_mv
TO ${db}.ragpulse_score_values
AS SELECT RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric, Value, Failed,
          Head, CostUSD, InputTokens, OutputTokens, Sign
FROM (
    SELECT RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric, Value,
           Failed, toUInt8(row_number() OVER (PARTITION BY TraceKey, SpanId, RequestTime, Scorer ORDER BY Metric) = 1) AS Head,
           CostUSD, InputTokens, OutputTokens, toInt8(1) AS Sign
    FROM (
        SELECT RequestTime, ScoredAt, cityHash64(TraceId) AS TraceKey, SpanId, ServiceName, Pipeline, Variant,
               Scorer, Metric, Value, toUInt8(Error != '') AS Failed, CostUSD, InputTokens, OutputTokens
        FROM ${db}.ragpulse_scores
        ORDER BY ScoredAt DESC
        LIMIT 1 BY TraceKey, SpanId, RequestTime, Scorer, Metric
    )
    UNION ALL
    SELECT RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric, Value,
           Failed, Head, CostUSD, InputTokens, OutputTokens, toInt8(-1) AS Sign
    FROM (
        SELECT RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric, Value,
               Failed, Head, CostUSD, InputTokens, OutputTokens, sum(Sign) AS counted
        FROM ${db}.ragpulse_score_values
        WHERE (toStartOfHour(RequestTime), TraceKey, SpanId, RequestTime, Scorer)
              IN (SELECT toStartOfHour(RequestTime), cityHash64(TraceId), SpanId, RequestTime, Scorer
                  FROM ${db}.ragpulse_scores)
        GROUP BY RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric, Value,
                 Failed, Head, CostUSD, InputTokens, OutputTokens
    )
    WHERE counted > 0
);

-- The scores already stored: each (request, scorer)'s newest judgment, as the view would have kept it.
-- Requests the view has counted since it was created are left out, so running this again adds nothing twice.
INSERT INTO ${db}.ragpulse_score_values (RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant,
    Scorer, Metric, Value, Failed, Head, CostUSD, InputTokens, OutputTokens, Sign)
SELECT RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric, Value, Failed,
       toUInt8(row_number() OVER (PARTITION BY TraceKey, SpanId, RequestTime, Scorer ORDER BY Metric) = 1) AS Head,
       CostUSD, InputTokens, OutputTokens, toInt8(1) AS Sign
FROM (
    SELECT RequestTime, ScoredAt, TraceKey, SpanId, ServiceName, Pipeline, Variant, Scorer, Metric, Value,
           toUInt8(Error != '') AS Failed, CostUSD, InputTokens, OutputTokens,
           max(ScoredAt) OVER (PARTITION BY TraceKey, SpanId, RequestTime, Scorer) AS newest
    FROM ${db}.ragpulse_scores
    WHERE (TraceKey, SpanId, RequestTime, Scorer)
          NOT IN (SELECT TraceKey, SpanId, RequestTime, Scorer FROM ${db}.ragpulse_score_values)
)
WHERE ScoredAt = newest
ORDER BY TraceKey, SpanId, RequestTime, Scorer, Metric, ScoredAt DESC
LIMIT 1 BY TraceKey, SpanId, RequestTime, Scorer, Metric;
