-- One narrow row per (trace, scorer): its hallucination, its lowest support and its unsupported-sentence count,
-- so "worst requests first" sorts a million short rows instead of grouping a million traces' score rows (what
-- took 300-500 ms at a million requests). Filled by a view on ragpulse_scores: the scoring writer inserts all
-- metric rows of a batch of traces at once, so the view groups a trace's rows within that insert. A re-score
-- writes a newer row with the same key, and readers take the newest (FINAL). The metric names mirror
-- ragpulse_scorers.metric_names (HALLUCINATION, SUPPORT_METRICS, UNSUPPORTED_SENTENCES).
CREATE TABLE IF NOT EXISTS ${db}.ragpulse_trace_verdicts (
    RequestTime DateTime64(9) CODEC(Delta, ZSTD(1)),
    ScoredAt DateTime64(6) CODEC(Delta, ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    TraceKey UInt64 CODEC(ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Pipeline LowCardinality(String) CODEC(ZSTD(1)),
    Variant LowCardinality(String) CODEC(ZSTD(1)),
    Scorer LowCardinality(String) CODEC(ZSTD(1)),
    Hallucination Nullable(Float64) CODEC(ZSTD(1)),
    Support Nullable(Float64) CODEC(ZSTD(1)),
    Unsupported Nullable(Float64) CODEC(ZSTD(1)),
    HasHallucination UInt8 CODEC(ZSTD(1))
) ENGINE = ReplacingMergeTree(ScoredAt)
PARTITION BY toDate(RequestTime)
ORDER BY (toStartOfHour(RequestTime), Scorer, TraceKey)
TTL toDateTime(RequestTime) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.ragpulse_trace_verdicts_mv
TO ${db}.ragpulse_trace_verdicts
AS SELECT
    any(RequestTime) AS RequestTime,
    max(ScoredAt) AS ScoredAt,
    TraceId,
    cityHash64(TraceId) AS TraceKey,
    any(ServiceName) AS ServiceName,
    any(Pipeline) AS Pipeline,
    any(Variant) AS Variant,
    Scorer,
    maxIf(Value, Metric = 'hallucination') AS Hallucination,
    minIf(Value, Metric IN ('support', 'adherence')) AS Support,
    maxIf(Value, Metric = 'unsupported_sentences') AS Unsupported,
    toUInt8(countIf(Metric = 'hallucination') > 0) AS HasHallucination
FROM ${db}.ragpulse_scores
WHERE Error = '' AND Metric IN ('hallucination', 'support', 'adherence', 'unsupported_sentences')
GROUP BY TraceId, Scorer;

-- Scores already stored (their newest rows), except those the view has filled since it was created, so
-- running this again adds nothing twice.
INSERT INTO ${db}.ragpulse_trace_verdicts
SELECT
    any(RequestTime) AS RequestTime,
    max(ScoredAt) AS ScoredAt,
    TraceId,
    cityHash64(TraceId) AS TraceKey,
    any(ServiceName) AS ServiceName,
    any(Pipeline) AS Pipeline,
    any(Variant) AS Variant,
    Scorer,
    maxIf(Value, Metric = 'hallucination') AS Hallucination,
    minIf(Value, Metric IN ('support', 'adherence')) AS Support,
    maxIf(Value, Metric = 'unsupported_sentences') AS Unsupported,
    toUInt8(countIf(Metric = 'hallucination') > 0) AS HasHallucination
FROM ${db}.ragpulse_scores FINAL
WHERE Error = '' AND Metric IN ('hallucination', 'support', 'adherence', 'unsupported_sentences')
  AND (cityHash64(TraceId), Scorer) NOT IN (SELECT TraceKey, Scorer FROM ${db}.ragpulse_trace_verdicts)
GROUP BY TraceId, Scorer;
