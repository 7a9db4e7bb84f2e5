-- The tables the scorers read and write: requests (from ragpulse root spans, and assembled from foreign traces),
-- scores and the scoring log. Databases migrated before the parts had migrations of their own created these
-- in version 0001; every statement is IF NOT EXISTS, so there this version changes nothing.

-- One narrow row per RAG request, from root spans. Sampling and dashboards read this, not the span table.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_requests (
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Question String CODEC(ZSTD(1)),
    Answer String CODEC(ZSTD(1)),
    Context String CODEC(ZSTD(1)),
    Variations String CODEC(ZSTD(1)),
    Retrievals String CODEC(ZSTD(1)),
    Reference String CODEC(ZSTD(1)),
    SessionId String CODEC(ZSTD(1)),
    UserId String CODEC(ZSTD(1)),
    DurationMs Float64 CODEC(ZSTD(1)),
    StatusCode LowCardinality(String) CODEC(ZSTD(1)),
    SampleKey UInt64 CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1
) ENGINE = ReplacingMergeTree()
PARTITION BY toDate(Timestamp)
ORDER BY (ServiceName, Pipeline, Variant, toDateTime(Timestamp), TraceId)
TTL toDateTime(Timestamp) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_requests_mv
TO ${db}.ragpulse_requests
AS SELECT
    TraceId,
    SpanId,
    Timestamp,
    ServiceName,
    SpanAttributes['ragpulse.pipeline'] AS Pipeline,
    SpanAttributes['ragpulse.variant'] AS Variant,
    SpanAttributes['input.value'] AS Question,
    SpanAttributes['output.value'] AS Answer,
    SpanAttributes['ragpulse.context'] AS Context,
    SpanAttributes['ragpulse.variations'] AS Variations,
    SpanAttributes['ragpulse.retrievals'] AS Retrievals,
    SpanAttributes['ragpulse.reference'] AS Reference,
    SpanAttributes['session.id'] AS SessionId,
    SpanAttributes['user.id'] AS UserId,
    Duration / 1e6 AS DurationMs,
    StatusCode,
    cityHash64(TraceId) AS SampleKey
FROM ${db}.otel_traces
WHERE SpanAttributes['ragpulse.kind'] = 'rag';

-- One row per (trace, scorer, metric); scoring a request again replaces its rows.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_scores (
    TraceId String CODEC(ZSTD(1)),
    RequestTime DateTime64(9) CODEC(Delta, ZSTD(1)),
    ScoredAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    ScorerVersion LowCardinality(String) CODEC(ZSTD(1)),
    Metric LowCardinality(String) CODEC(ZSTD(1)),
    Value Nullable(Float64) CODEC(ZSTD(1)),
    Label LowCardinality(String) CODEC(ZSTD(1)),
    Explanation String CODEC(ZSTD(1)),
    Details String CODEC(ZSTD(1)),
    JudgeModel LowCardinality(String) CODEC(ZSTD(1)),
    InputTokens UInt32 CODEC(ZSTD(1)),
    OutputTokens UInt32 CODEC(ZSTD(1)),
    CostUSD Float64 CODEC(ZSTD(1)),
    LatencyMs Float64 CODEC(ZSTD(1)),
    Error String CODEC(ZSTD(1))
) ENGINE = ReplacingMergeTree(ScoredAt)
PARTITION BY toYYYYMM(RequestTime)
ORDER BY (ServiceName, Scorer, Metric, TraceId)
TTL toDateTime(RequestTime) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, non_replicated_deduplication_window = 10000;

-- Every candidate's fate: scored, sampled out, throttled, over budget, skipped or failed, with the reason.
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_scoring_log (
    LoggedAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    RequestTime DateTime64(9) CODEC(Delta, ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    ScorerVersion LowCardinality(String) CODEC(ZSTD(1)),
    Outcome LowCardinality(String) CODEC(ZSTD(1)),
    Reason String CODEC(ZSTD(1)),
    Worker LowCardinality(String) CODEC(ZSTD(1))
) ENGINE = MergeTree()
PARTITION BY toDate(LoggedAt)
ORDER BY (Scorer, Outcome, LoggedAt)
TTL toDateTime(LoggedAt) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 10000;
