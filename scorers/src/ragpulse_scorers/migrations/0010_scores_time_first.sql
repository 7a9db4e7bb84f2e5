-- Scores sorted with time first, so a 24-hour panel reads 24 hours and not the whole table. The rows the
-- 0005 table holds move to the new one: build it beside the old, copy, swap the two atomically, drop the old.
-- Each step can run again after a crash at any point: a half-filled copy is dropped first, and after the
-- swap the copy is made from the already-moved table. Stop scorers while this runs (rows they write between
-- the copy and the swap stay in the dropped table).
-- The dedup key is the same as before (trace, scorer, metric; the hour is that of the request, constant per
-- trace), so a re-score still replaces the earlier rows when parts merge. Scores are written once per trace,
-- scorer and version, so dashboards read without FINAL; a re-score (a new scorer version, or a worker killed
-- between its score and log writes) is counted twice until its parts merge.
DROP TABLE IF EXISTS ${db}.ragpulse_scores_0010;

CREATE TABLE ${db}.ragpulse_scores_0010 (
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
    Error String CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1
) ENGINE = ReplacingMergeTree(ScoredAt)
PARTITION BY toDate(RequestTime)
ORDER BY (toStartOfHour(RequestTime), Metric, Scorer, ServiceName, Variant, TraceId)
TTL toDateTime(RequestTime) + toIntervalDay(${ttl_days})
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 10000;

INSERT INTO ${db}.ragpulse_scores_0010 SELECT * FROM ${db}.ragpulse_scores;

EXCHANGE TABLES ${db}.ragpulse_scores AND ${db}.ragpulse_scores_0010;

DROP TABLE IF EXISTS ${db}.ragpulse_scores_0010;
